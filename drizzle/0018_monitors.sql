CREATE TABLE "generation_scores" (
	"generation_id" uuid NOT NULL,
	"evaluator_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"action_id" uuid NOT NULL,
	"monitor_id" uuid NOT NULL,
	"score" double precision,
	"error" text,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "generation_scores_generation_id_evaluator_id_pk" PRIMARY KEY("generation_id","evaluator_id")
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"action_id" uuid NOT NULL,
	"evaluator_ids" jsonb NOT NULL,
	"sample_rate" double precision NOT NULL,
	"environment" text,
	"scanned_until" timestamp with time zone NOT NULL,
	"scanned_id" uuid,
	"created_by_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "generation_scores" ADD CONSTRAINT "generation_scores_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_action_id_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generation_scores_day_index" ON "generation_scores" USING btree ("workspace_id","day");--> statement-breakpoint
CREATE INDEX "generation_scores_evaluator_index" ON "generation_scores" USING btree ("evaluator_id","score");--> statement-breakpoint
CREATE INDEX "monitors_workspace_index" ON "monitors" USING btree ("workspace_id","created_at");