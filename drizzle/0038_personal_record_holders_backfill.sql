-- Each user's legacy personal records (contract §7) from the records kept so far: of the executions that lifted each
-- current MAX_WEIGHT, the earliest executed, then the first logged, with the current ESTIMATED_1RM.
INSERT INTO "personal_record_holders" ("user_id", "exercise_id", "value", "exercise_execution_id", "exercise_name", "executed_at", "one_rep_max")
SELECT DISTINCT ON (r."user_id", r."exercise_id") r."user_id", r."exercise_id", r."value", e."id", e."exercise_name", e."executed_at", estimate."value"
FROM "exercise_records" r
JOIN "exercise_executions" e ON e."user_id" = r."user_id" AND e."exercise_id" = r."exercise_id" AND e."max_weight" = r."value"
LEFT JOIN "exercise_records" estimate ON estimate."user_id" = r."user_id" AND estimate."exercise_id" = r."exercise_id"
  AND estimate."kind" = 'ESTIMATED_1RM' AND estimate."current"
WHERE r."kind" = 'MAX_WEIGHT' AND r."current"
ORDER BY r."user_id", r."exercise_id", e."executed_at", e."id";
