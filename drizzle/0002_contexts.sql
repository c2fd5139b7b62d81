CREATE TABLE "context_sources" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"context_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"loader_id" text DEFAULT 'file' NOT NULL,
	"loader_config" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"splitter_config" jsonb NOT NULL,
	"indexing_status" text DEFAULT 'PENDING' NOT NULL,
	"indexed_at" timestamp with time zone,
	"indexing_metadata" jsonb,
	"created_by_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "context_terms" (
	"context_id" uuid NOT NULL,
	"term" text NOT NULL,
	"document_frequency" integer NOT NULL,
	CONSTRAINT "context_terms_context_id_term_pk" PRIMARY KEY("context_id","term")
);
--> statement-breakpoint
CREATE TABLE "contexts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"response_length" integer,
	"splitter_config" jsonb NOT NULL,
	"embedding_model" text,
	"metadata" jsonb,
	"created_by_id" text NOT NULL,
	"document_count" integer DEFAULT 0 NOT NULL,
	"term_total" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_terms" (
	"context_id" uuid NOT NULL,
	"term" text NOT NULL,
	"document_id" uuid NOT NULL,
	"frequency" integer NOT NULL,
	"document_length" integer NOT NULL,
	"impact" real NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"context_id" uuid NOT NULL,
	"source_id" uuid,
	"content" text NOT NULL,
	"filter" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"term_count" integer NOT NULL,
	"embedding" real[],
	"embedding_dimensions" integer,
	"embedding_status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "context_sources" ADD CONSTRAINT "context_sources_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "context_sources" ADD CONSTRAINT "context_sources_context_id_contexts_id_fk" FOREIGN KEY ("context_id") REFERENCES "public"."contexts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "context_terms" ADD CONSTRAINT "context_terms_context_id_contexts_id_fk" FOREIGN KEY ("context_id") REFERENCES "public"."contexts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contexts" ADD CONSTRAINT "contexts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_terms" ADD CONSTRAINT "document_terms_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_context_id_contexts_id_fk" FOREIGN KEY ("context_id") REFERENCES "public"."contexts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_source_id_context_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."context_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "context_sources_context_index" ON "context_sources" USING btree ("context_id","created_at");--> statement-breakpoint
CREATE INDEX "contexts_workspace_index" ON "contexts" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "documents_context_index" ON "documents" USING btree ("context_id","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_pending_index" ON "documents" USING btree ("context_id") WHERE "documents"."embedding_status" = 'pending';--> statement-breakpoint
CREATE INDEX "documents_source_index" ON "documents" USING btree ("source_id") WHERE "documents"."source_id" is not null;--> statement-breakpoint
-- Written by hand (drizzle cannot declare INCLUDE). A search reads each query term's postings by impact,
-- then the candidates' postings by document, from these indexes alone.
CREATE INDEX "document_terms_impact" ON "document_terms" USING btree ("context_id","term","impact" DESC) INCLUDE ("document_id","frequency","document_length");--> statement-breakpoint
CREATE INDEX "document_terms_document" ON "document_terms" USING btree ("document_id","term") INCLUDE ("frequency","document_length");--> statement-breakpoint
-- Embeddings are incompressible floats: skip the compression attempt and store them out of line directly.
ALTER TABLE "documents" ALTER COLUMN "embedding" SET STORAGE EXTERNAL;--> statement-breakpoint
-- Exact similarity of two unit vectors, for PostgreSQL without pgvector (the fallback of docs/architecture.md#platform-parts).
CREATE FUNCTION "lectern_dot_product"(left_vector real[], right_vector real[]) RETURNS double precision
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT sum(l * r) FROM unnest(left_vector, right_vector) AS pair(l, r) $$;
