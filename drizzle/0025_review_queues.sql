CREATE TABLE "review_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"queue_id" uuid NOT NULL,
	"generation_id" uuid NOT NULL,
	"leases" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"lease_holders" text[] DEFAULT '{}'::text[] NOT NULL,
	"leased_until" timestamp with time zone,
	"reviewed_by" text[] DEFAULT '{}'::text[] NOT NULL,
	"review_count" integer DEFAULT 0 NOT NULL,
	"skipped_by" text[] DEFAULT '{}'::text[] NOT NULL,
	"position" bigint GENERATED ALWAYS AS IDENTITY (sequence name "review_items_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "review_items_generation_key" UNIQUE("queue_id","generation_id")
);
--> statement-breakpoint
CREATE TABLE "review_queues" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"questions" jsonb NOT NULL,
	"reviews_per_item" integer NOT NULL,
	"blind" boolean NOT NULL,
	"assignees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dataset_id" uuid,
	"lease_seconds" integer NOT NULL,
	"created_by_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "review_rules" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"queue_id" uuid NOT NULL,
	"action_id" uuid,
	"environment" text,
	"sources" jsonb,
	"condition" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sample_rate" double precision NOT NULL,
	"backfill_since" timestamp with time zone,
	"scanned_until" timestamp with time zone NOT NULL,
	"scanned_id" uuid,
	"created_by_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"queue_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"reviewer_id" text NOT NULL,
	"answers" jsonb NOT NULL,
	"correction" text,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_reviewer_key" UNIQUE("item_id","reviewer_id")
);
--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_queues" ADD CONSTRAINT "review_queues_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_rules" ADD CONSTRAINT "review_rules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_rules" ADD CONSTRAINT "review_rules_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_item_id_review_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."review_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_items_queue_index" ON "review_items" USING btree ("queue_id","position");--> statement-breakpoint
CREATE INDEX "review_items_open_index" ON "review_items" USING btree ("queue_id","position") WHERE "review_items"."completed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "review_items_holders_index" ON "review_items" USING gin ("lease_holders");--> statement-breakpoint
CREATE INDEX "review_queues_workspace_index" ON "review_queues" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "review_rules_queue_index" ON "review_rules" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "reviews_queue_index" ON "reviews" USING btree ("queue_id","item_id");