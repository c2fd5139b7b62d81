CREATE TABLE "released_action_slugs" (
	"workspace_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"action_id" uuid NOT NULL,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "context_sources" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "published" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "release_gates" ADD COLUMN "dataset_version" integer;--> statement-breakpoint
ALTER TABLE "release_gates" ADD COLUMN "evaluator_pins" jsonb;--> statement-breakpoint
-- Gates set before pins existed pin what they read today: the dataset's current version and each evaluator as it is.
UPDATE "release_gates" gate SET
  "dataset_version" = (SELECT dataset."version" FROM "datasets" dataset WHERE dataset."id" = gate."dataset_id"),
  "evaluator_pins" = COALESCE((
    SELECT jsonb_agg(jsonb_build_object('id', evaluator."id", 'name', evaluator."name", 'type', evaluator."type", 'config', evaluator."config") ORDER BY listed.position)
    FROM jsonb_array_elements_text(gate."evaluator_ids") WITH ORDINALITY AS listed(id, position)
    JOIN "evaluators" evaluator ON evaluator."id"::text = listed.id
  ), '[]'::jsonb);--> statement-breakpoint
ALTER TABLE "release_gates" ALTER COLUMN "dataset_version" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "release_gates" ALTER COLUMN "evaluator_pins" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "single_use_tokens" ADD COLUMN "issued_by" uuid;--> statement-breakpoint
ALTER TABLE "single_use_tokens" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "single_use_tokens" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "released_action_slugs" ADD CONSTRAINT "released_action_slugs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "released_action_slugs" ADD CONSTRAINT "released_action_slugs_action_id_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "released_action_slugs_slug_index" ON "released_action_slugs" USING btree ("workspace_id","slug","released_at");--> statement-breakpoint
ALTER TABLE "single_use_tokens" ADD CONSTRAINT "single_use_tokens_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "single_use_tokens" ADD CONSTRAINT "single_use_tokens_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_unpublished_index" ON "documents" USING btree ("context_id","created_at") WHERE NOT "documents"."published";--> statement-breakpoint
CREATE INDEX "single_use_tokens_issuer_index" ON "single_use_tokens" USING btree ("issued_by");