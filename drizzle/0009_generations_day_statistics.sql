-- Planner statistics on the dashboard's day expression (no index, so no cost per inserted run): with
-- them PostgreSQL knows a workspace's month has ~30 days, not a million distinct values, and groups
-- the runs in a small hash table instead of sorting them all to disk first.
CREATE STATISTICS IF NOT EXISTS "generations_day_statistics" ON (date_trunc('day', "created_at" AT TIME ZONE 'UTC')) FROM "generations";
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "run_failures_day_statistics" ON (date_trunc('day', "created_at" AT TIME ZONE 'UTC')) FROM "run_failures";
