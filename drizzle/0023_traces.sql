CREATE TABLE "spans" (
	"workspace_id" uuid NOT NULL,
	"trace_id" text NOT NULL,
	"span_id" text NOT NULL,
	"parent_span_id" text,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"start_unix_nano" bigint NOT NULL,
	"end_unix_nano" bigint NOT NULL,
	"status" text NOT NULL,
	"status_message" text DEFAULT '' NOT NULL,
	"attributes" jsonb NOT NULL,
	"events" jsonb NOT NULL,
	"service_name" text,
	"scope_name" text,
	"generation_id" uuid,
	CONSTRAINT "spans_workspace_id_trace_id_span_id_start_unix_nano_pk" PRIMARY KEY("workspace_id","trace_id","span_id","start_unix_nano")
) PARTITION BY RANGE ("start_unix_nano");
--> statement-breakpoint
CREATE TABLE "traces" (
	"workspace_id" uuid NOT NULL,
	"trace_id" text NOT NULL,
	"name" text,
	"service_name" text,
	"root_status" text,
	"start_unix_nano" bigint NOT NULL,
	"end_unix_nano" bigint NOT NULL,
	"span_count" integer NOT NULL,
	"failed" boolean DEFAULT false NOT NULL,
	"session" text,
	"cost" double precision DEFAULT 0 NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "traces_workspace_id_trace_id_pk" PRIMARY KEY("workspace_id","trace_id")
);
--> statement-breakpoint
ALTER TABLE "generation_days" DROP CONSTRAINT "generation_days_workspace_id_day_action_id_pk";--> statement-breakpoint
ALTER TABLE "generation_days" ALTER COLUMN "action_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "generations" ALTER COLUMN "action_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "trace_id" text;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "span_id" text;--> statement-breakpoint
ALTER TABLE "spans" ADD CONSTRAINT "spans_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traces" ADD CONSTRAINT "traces_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "traces_workspace_start_index" ON "traces" USING btree ("workspace_id","start_unix_nano");--> statement-breakpoint
CREATE INDEX "traces_session_index" ON "traces" USING btree ("workspace_id","session","start_unix_nano") WHERE "traces"."session" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "generations_span_index" ON "generations" USING btree ("workspace_id","trace_id","span_id") WHERE "generations"."span_id" is not null;--> statement-breakpoint
ALTER TABLE "generation_days" ADD CONSTRAINT "generation_days_key" UNIQUE NULLS NOT DISTINCT("workspace_id","day","action_id");