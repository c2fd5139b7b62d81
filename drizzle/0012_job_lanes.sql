ALTER TABLE "jobs" ADD COLUMN "lane" text DEFAULT 'interactive' NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "fair_share_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "fair_position" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_fair_claim_index" ON "jobs" USING btree ("lane","fair_share_key","fair_position") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_fair_clock_index" ON "jobs" USING btree ("lane","fair_position") WHERE status = 'queued';--> statement-breakpoint
-- Jobs queued by an older release: embedding and indexing are bulk work, each job's fair share is
-- its payload's workspace, and its turn follows the order it was queued in.
UPDATE "jobs" SET "lane" = 'bulk' WHERE "name" IN ('embed-documents', 'process-context-source');--> statement-breakpoint
UPDATE "jobs" SET "fair_share_key" = coalesce("payload"->>'workspaceId', '');--> statement-breakpoint
UPDATE "jobs" SET "fair_position" = ordered.turn
FROM (SELECT "id", row_number() OVER (PARTITION BY "lane", "fair_share_key" ORDER BY "run_at") AS turn
      FROM "jobs" WHERE "status" = 'queued') ordered
WHERE "jobs"."id" = ordered."id";
