CREATE TABLE "released_action_slugs" (
	"workspace_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"action_id" uuid NOT NULL,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_chain" ADD COLUMN "mac" text;--> statement-breakpoint
ALTER TABLE "audit_chain" ADD COLUMN "key_check" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "keyed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
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
CREATE INDEX "single_use_tokens_issuer_index" ON "single_use_tokens" USING btree ("issued_by");--> statement-breakpoint
-- Appends are keyed from here on: the record's hash is HMAC-SHA256 under the chain's key (derived from
-- LECTERN_SECRET) over the previous hash, a newline and the record's canonical JSON, and the head carries
-- an HMAC of itself. The service passes the key as HMAC's two padded keys (key XOR ipad, key XOR opad),
-- so HMAC is two sha256() calls here: HMAC(k, m) = sha256(k_outer || sha256(k_inner || m)).
DROP FUNCTION "audit_log_append"(uuid, uuid, timestamptz, text, uuid, text, text, text, text, integer, text, text, text, jsonb, text);--> statement-breakpoint
CREATE FUNCTION "audit_log_append"(
  "record_id" uuid, "record_workspace_id" uuid, "record_at" timestamptz, "record_actor_type" text,
  "record_actor_id" uuid, "record_actor_label" text, "record_action" text, "record_resource_type" text,
  "record_resource_id" text, "record_status" integer, "record_request_id" text, "record_ip" text,
  "record_user_agent" text, "record_changes" jsonb, "record_canonical" text,
  "key_inner" bytea, "key_outer" bytea
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "previous_hash" text;
  "next_hash" text;
BEGIN
  -- The head's row lock orders appends: a second writer waits here until the first commits.
  SELECT "audit_chain"."hash" INTO "previous_hash" FROM "audit_chain" WHERE "audit_chain"."id" = 1 FOR UPDATE;
  "next_hash" := encode(sha256("key_outer" || sha256("key_inner" ||
    convert_to("previous_hash" || E'\n' || "record_canonical", 'UTF8'))), 'hex');
  INSERT INTO "audit_log" ("id", "workspace_id", "at", "actor_type", "actor_id", "actor_label", "action",
    "resource_type", "resource_id", "status", "request_id", "ip", "user_agent", "changes", "previous_hash", "hash", "keyed")
  VALUES ("record_id", "record_workspace_id", "record_at", "record_actor_type", "record_actor_id",
    "record_actor_label", "record_action", "record_resource_type", "record_resource_id", "record_status",
    "record_request_id", "record_ip", "record_user_agent", "record_changes", "previous_hash", "next_hash", true);
  UPDATE "audit_chain" SET "hash" = "next_hash",
    "mac" = encode(sha256("key_outer" || sha256("key_inner" || convert_to('head' || E'\n' || "next_hash", 'UTF8'))), 'hex'),
    "key_check" = encode(sha256("key_inner"), 'hex')
  WHERE "audit_chain"."id" = 1;
END;
$$;--> statement-breakpoint
-- Only retention's prune deletes, and it proves it holds the chain's key: it names the key's inner pad
-- in the transaction-local lectern.audit_pruning_key, whose SHA-256 the head keeps (key_check). A
-- setting anyone could make (the former lectern.audit_pruning = on) no longer lets a record go.
CREATE OR REPLACE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND (SELECT "audit_chain"."key_check" FROM "audit_chain" WHERE "audit_chain"."id" = 1)
      = encode(sha256(decode(nullif(current_setting('lectern.audit_pruning_key', true), ''), 'hex')), 'hex') THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'the audit log is append-only: % is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
