ALTER TABLE "generation_days" ADD COLUMN "good_feedback" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "generation_days" ADD COLUMN "bad_feedback" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Days rolled up before these columns counted no ratings: each is summed again when next read.
UPDATE "generation_days_computed" SET "changed_at" = clock_timestamp();
