CREATE TABLE "review_agreement_sums" (
	"queue_id" uuid NOT NULL,
	"question_key" text NOT NULL,
	"answer" text NOT NULL,
	"answers" integer NOT NULL,
	"shard" integer NOT NULL,
	"count" integer NOT NULL,
	"agreeing_pairs" integer NOT NULL,
	"total" double precision NOT NULL,
	"squares" double precision NOT NULL,
	"value_by_totals" double precision NOT NULL,
	CONSTRAINT "review_agreement_sums_queue_id_question_key_answer_answers_shard_pk" PRIMARY KEY("queue_id","question_key","answer","answers","shard")
);
--> statement-breakpoint
CREATE TABLE "review_answer_counts" (
	"queue_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"question_key" text NOT NULL,
	"answer" text NOT NULL,
	"value" double precision,
	"count" integer NOT NULL,
	"unit_answers" integer NOT NULL,
	"unit_total" double precision NOT NULL,
	CONSTRAINT "review_answer_counts_item_id_question_key_answer_pk" PRIMARY KEY("item_id","question_key","answer")
);
--> statement-breakpoint
ALTER TABLE "review_agreement_sums" ADD CONSTRAINT "review_agreement_sums_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_answer_counts" ADD CONSTRAINT "review_answer_counts_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_answer_counts" ADD CONSTRAINT "review_answer_counts_item_id_review_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."review_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_answer_counts_queue_index" ON "review_answer_counts" USING btree ("queue_id","question_key");--> statement-breakpoint
-- The counts of the reviews made before this migration: every answer to a question that is not `text`.
INSERT INTO "review_answer_counts" ("queue_id", "item_id", "question_key", "answer", "value", "count", "unit_answers", "unit_total")
SELECT review.queue_id, review.item_id, given.key, given.value::text,
  CASE WHEN jsonb_typeof(given.value) = 'number' THEN given.value::text::double precision END, count(*), 0, 0
FROM "reviews" AS review
CROSS JOIN LATERAL jsonb_each(review.answers) AS given
JOIN "review_queues" AS queue ON queue.id = review.queue_id
WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(queue.questions) AS question
  WHERE question->>'key' = given.key AND question->>'type' <> 'text')
GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
UPDATE "review_answer_counts" AS counted
SET unit_answers = unit.answers, unit_total = unit.total
FROM (SELECT item_id, question_key, sum(count)::integer AS answers, coalesce(sum(count * value), 0) AS total
  FROM "review_answer_counts" GROUP BY 1, 2) AS unit
WHERE counted.item_id = unit.item_id AND counted.question_key = unit.question_key;--> statement-breakpoint
INSERT INTO "review_agreement_sums" ("queue_id", "question_key", "answer", "answers", "shard", "count", "agreeing_pairs", "total", "squares", "value_by_totals")
SELECT queue_id, question_key, answer, unit_answers, 0, sum(count), sum(count * (count - 1)),
  sum(count * coalesce(value, 0)), sum(count * coalesce(value, 0) * coalesce(value, 0)),
  sum(count * coalesce(value, 0) * unit_total)
FROM "review_answer_counts" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
-- A deleted item's counts (its generation deleted) leave the queue's sums with them. A queue being
-- deleted is gone from review_queues by the time its counts are: its sums go with it instead.
CREATE FUNCTION "review_answer_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "review_agreement_sums" AS summed ("queue_id", "question_key", "answer", "answers", "shard",
    "count", "agreeing_pairs", "total", "squares", "value_by_totals")
  SELECT deleted.queue_id, deleted.question_key, deleted.answer, deleted.unit_answers, 0,
    -sum(deleted.count), -sum(deleted.count * (deleted.count - 1)),
    -sum(deleted.count * coalesce(deleted.value, 0)),
    -sum(deleted.count * coalesce(deleted.value, 0) * coalesce(deleted.value, 0)),
    -sum(deleted.count * coalesce(deleted.value, 0) * deleted.unit_total)
  FROM deleted_counts AS deleted
  JOIN "review_queues" AS queue ON queue.id = deleted.queue_id
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("queue_id", "question_key", "answer", "answers", "shard") DO UPDATE SET
    count = summed.count + excluded.count,
    agreeing_pairs = summed.agreeing_pairs + excluded.agreeing_pairs,
    total = summed.total + excluded.total, squares = summed.squares + excluded.squares,
    value_by_totals = summed.value_by_totals + excluded.value_by_totals;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "review_answer_counts_deleted" AFTER DELETE ON "review_answer_counts"
  REFERENCING OLD TABLE AS deleted_counts FOR EACH STATEMENT EXECUTE FUNCTION "review_answer_counts_deleted"();
