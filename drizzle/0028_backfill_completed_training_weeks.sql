-- The completed weeks (completed_training_weeks) of the history logged before they were kept at logging time: per
-- user, training and block of 64 ISO weeks, a bit for each week some completed execution of the training started
-- in, as setting them with each log one after the other leaves them.
INSERT INTO "completed_training_weeks" ("user_id", "training_id", "block", "weeks")
SELECT "user_id", "training_id", "week" / 64, bit_or(1::bigint << ("week" % 64))
FROM (
  SELECT "user_id", "training_id", ((("start_time" AT TIME ZONE 'UTC')::date - '0001-01-01'::date) / 7) AS "week"
  FROM "training_executions"
  WHERE "completed" AND "training_id" IS NOT NULL
) completed_sessions
GROUP BY "user_id", "training_id", "week" / 64
ON CONFLICT DO NOTHING;
