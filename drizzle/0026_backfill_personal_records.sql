-- The personal records (contract §7) of the history logged before they were kept at logging time: per user and
-- exercise, the heaviest completed set (the earliest execution reaching it, then the first logged) and the best
-- one-rep-max estimate, as raising them with each execution one after the other leaves them.
INSERT INTO "personal_records" ("user_id", "exercise_id", "exercise_execution_id", "exercise_name", "max_weight", "executed_at", "best_one_rep_max")
SELECT DISTINCT ON (ee."user_id", ee."exercise_id") ee."user_id", ee."exercise_id", ee."id", ee."exercise_name", ee."max_weight", ee."executed_at",
  max(ee."best_one_rep_max") OVER (PARTITION BY ee."user_id", ee."exercise_id")
FROM "exercise_executions" ee
WHERE ee."exercise_id" IS NOT NULL AND ee."max_weight" IS NOT NULL
ORDER BY ee."user_id", ee."exercise_id", ee."max_weight" DESC, ee."executed_at", ee."id"
ON CONFLICT DO NOTHING;
