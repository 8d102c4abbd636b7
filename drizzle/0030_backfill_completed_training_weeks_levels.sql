-- The weeks in which the history logged before them completed a training twice and three times or more
-- (completed_training_weeks.weeks_twice and weeks_thrice), as setting them with each log one after the other leaves
-- them: per user, training and block of 64 ISO weeks, a bit for each such week.
UPDATE "completed_training_weeks" ctw
SET "weeks_twice" = levels."twice", "weeks_thrice" = levels."thrice"
FROM (
  SELECT "user_id", "training_id", "week" / 64 AS "block",
    coalesce(bit_or(1::bigint << ("week" % 64)) FILTER (WHERE "executions" >= 2), 0) AS "twice",
    coalesce(bit_or(1::bigint << ("week" % 64)) FILTER (WHERE "executions" >= 3), 0) AS "thrice"
  FROM (
    SELECT "user_id", "training_id", ((("start_time" AT TIME ZONE 'UTC')::date - '0001-01-01'::date) / 7) AS "week", count(*) AS "executions"
    FROM "training_executions"
    WHERE "completed" AND "training_id" IS NOT NULL
    GROUP BY 1, 2, 3
  ) weekly
  GROUP BY 1, 2, 3
) levels
WHERE ctw."user_id" = levels."user_id" AND ctw."training_id" = levels."training_id" AND ctw."block" = levels."block";
