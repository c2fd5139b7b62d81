CREATE TABLE "evaluation_results" (
	"evaluation_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"item_row_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"generation_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"output" text,
	"error" text,
	"scores" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"score_errors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"latency_ms" integer,
	"cost_usd" double precision,
	"finished_at" timestamp with time zone,
	CONSTRAINT "evaluation_results_evaluation_id_position_pk" PRIMARY KEY("evaluation_id","position")
);
--> statement-breakpoint
CREATE TABLE "evaluations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"action_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"model" text,
	"environment" text,
	"dataset_id" uuid NOT NULL,
	"dataset_version" integer NOT NULL,
	"evaluators" jsonb NOT NULL,
	"concurrency" integer NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"total" integer NOT NULL,
	"report" jsonb,
	"created_by_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "release_gates" (
	"action_id" uuid NOT NULL,
	"environment" text NOT NULL,
	"dataset_id" uuid NOT NULL,
	"evaluator_ids" jsonb NOT NULL,
	"min_mean" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"max_regressions" integer,
	"approvals" integer,
	"updated_by_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_gates_action_id_environment_pk" PRIMARY KEY("action_id","environment")
);
--> statement-breakpoint
CREATE TABLE "version_approvals" (
	"action_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "version_approvals_action_id_version_user_id_pk" PRIMARY KEY("action_id","version","user_id")
);
--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_evaluation_id_evaluations_id_fk" FOREIGN KEY ("evaluation_id") REFERENCES "public"."evaluations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_item_row_id_dataset_items_id_fk" FOREIGN KEY ("item_row_id") REFERENCES "public"."dataset_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_action_id_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_gates" ADD CONSTRAINT "release_gates_action_id_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_gates" ADD CONSTRAINT "release_gates_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_approvals" ADD CONSTRAINT "version_approvals_action_id_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evaluation_results_item_index" ON "evaluation_results" USING btree ("evaluation_id","item_id");--> statement-breakpoint
CREATE INDEX "evaluations_workspace_index" ON "evaluations" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "evaluations_action_index" ON "evaluations" USING btree ("action_id","version","created_at");