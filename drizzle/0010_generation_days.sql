CREATE TABLE "generation_days" (
	"workspace_id" uuid NOT NULL,
	"day" date NOT NULL,
	"action_id" uuid NOT NULL,
	"runs" integer NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"cost" double precision NOT NULL,
	"with_feedback" integer NOT NULL,
	"errors" integer NOT NULL,
	"latency_values" integer[] NOT NULL,
	"latency_counts" integer[] NOT NULL,
	CONSTRAINT "generation_days_workspace_id_day_action_id_pk" PRIMARY KEY("workspace_id","day","action_id")
);
--> statement-breakpoint
CREATE TABLE "generation_days_computed" (
	"workspace_id" uuid NOT NULL,
	"day" date NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"changed_at" timestamp with time zone,
	CONSTRAINT "generation_days_computed_workspace_id_day_pk" PRIMARY KEY("workspace_id","day")
);
--> statement-breakpoint
ALTER TABLE "generation_days" ADD CONSTRAINT "generation_days_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generation_days" ADD CONSTRAINT "generation_days_action_id_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generation_days_computed" ADD CONSTRAINT "generation_days_computed_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;