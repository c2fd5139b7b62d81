CREATE TABLE "snippet_versions" (
	"snippet_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"content" text NOT NULL,
	"saved_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "snippet_versions_snippet_id_version_pk" PRIMARY KEY("snippet_id","version")
);
--> statement-breakpoint
CREATE TABLE "snippets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"folder" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"latest_version" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "action_versions" ADD COLUMN "snippets" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "action_versions" ADD COLUMN "resolved" jsonb;--> statement-breakpoint
ALTER TABLE "actions" ADD COLUMN "folder" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "snippet_versions" ADD CONSTRAINT "snippet_versions_snippet_id_snippets_id_fk" FOREIGN KEY ("snippet_id") REFERENCES "public"."snippets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets" ADD CONSTRAINT "snippets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "snippets_workspace_name_unique" ON "snippets" USING btree ("workspace_id","name") WHERE "snippets"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "snippets_workspace_folder_index" ON "snippets" USING btree ("workspace_id","folder");--> statement-breakpoint
CREATE INDEX "actions_workspace_folder_index" ON "actions" USING btree ("workspace_id","folder");