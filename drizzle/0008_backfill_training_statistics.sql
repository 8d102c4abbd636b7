-- Fills the stored session volume and the monthly training statistics for executions logged before them.
UPDATE "training_executions" te SET "volume" = COALESCE((SELECT sum(ee."volume") FROM "exercise_executions" ee WHERE ee."training_execution_id" = te."id"), 0);
--> statement-breakpoint
INSERT INTO "training_exercise_months" ("user_id", "training_id", "exercise_id", "month", "exercise_name", "completed_sets", "total_reps", "volume", "max_weight", "weight_sum", "weighted_sets")
SELECT te."user_id", te."training_id", ee."exercise_id", date_trunc('month', te."start_time" AT TIME ZONE 'UTC')::date, min(ee."exercise_name"),
  sum(ee."completed_sets"), sum(ee."total_reps"), sum(ee."volume"), max(ee."max_weight"), sum(ee."weight_sum"), sum(ee."weighted_sets")
FROM "training_executions" te JOIN "exercise_executions" ee ON ee."training_execution_id" = te."id"
WHERE te."training_id" IS NOT NULL AND ee."exercise_id" IS NOT NULL
GROUP BY 1, 2, 3, 4
ON CONFLICT DO NOTHING;
