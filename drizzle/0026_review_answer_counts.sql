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
WHERE counted.item_id = unit.item_id AND counted.question_key = unit.question_key;
