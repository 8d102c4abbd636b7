-- The records (contract §12.1) of the history logged before they existed, as logging it again one exercise execution at
-- a time would claim them, in the order of the executions' dates (then of their logging): each kind's best completed set
-- of an execution (the earliest on a tie; for BEST_SESSION_VOLUME the execution's weighted volume) is a record when it
-- strictly beats every earlier one of that user, exercise and kind. The rules are those of src/modules/records/records.values.ts.
INSERT INTO "exercise_records" ("user_id", "exercise_id", "kind", "value", "reps", "weight", "achieved_at", "exercise_execution_id",
  "training_execution_id", "set_index", "previous_value", "current")
WITH "set_values" AS (
  SELECT ee."id" AS "execution_id", s."position", s."repetitions", s."weight", k."kind", k."rank", k."value"
  FROM "exercise_executions" ee
  JOIN "execution_sets" s ON s."exercise_execution_id" = ee."id" AND s."completed"
  CROSS JOIN LATERAL (VALUES
    ('MAX_WEIGHT', 1, s."weight"),
    ('ESTIMATED_1RM', 2, CASE WHEN s."repetitions" = 1 THEN s."weight" WHEN s."repetitions" BETWEEN 2 AND 12 THEN round(s."weight" * (30 + s."repetitions") / 30, 2) END),
    ('BEST_SET_VOLUME', 3, s."weight" * s."repetitions"),
    ('MAX_REPS', 5, s."repetitions"::numeric),
    ('REP_MAX_3', 6, CASE WHEN s."repetitions" >= 3 THEN s."weight" END),
    ('REP_MAX_5', 7, CASE WHEN s."repetitions" >= 5 THEN s."weight" END),
    ('REP_MAX_10', 8, CASE WHEN s."repetitions" >= 10 THEN s."weight" END)
  ) AS k("kind", "rank", "value")
  WHERE ee."exercise_id" IS NOT NULL AND k."value" IS NOT NULL
),
"execution_bests" AS (
  (
    SELECT DISTINCT ON ("execution_id", "kind") "execution_id", "kind", "rank", "value", "repetitions" AS "reps", "weight", "position" AS "set_index"
    FROM "set_values"
    ORDER BY "execution_id", "kind", "value" DESC, "position"
  )
  UNION ALL
  SELECT ee."id", 'BEST_SESSION_VOLUME', 4, sum(s."weight" * s."repetitions"), NULL::int, NULL::numeric, NULL::int
  FROM "exercise_executions" ee
  JOIN "execution_sets" s ON s."exercise_execution_id" = ee."id" AND s."completed" AND s."weight" IS NOT NULL
  WHERE ee."exercise_id" IS NOT NULL
  GROUP BY ee."id"
),
"candidates" AS (
  SELECT ee."user_id", ee."exercise_id", ee."executed_at", ee."training_execution_id", b.*,
    max(b."value") OVER "earlier" AS "previous_value",
    max(b."value") OVER (PARTITION BY ee."user_id", ee."exercise_id", b."kind") AS "best_value"
  FROM "execution_bests" b
  JOIN "exercise_executions" ee ON ee."id" = b."execution_id"
  WINDOW "earlier" AS (PARTITION BY ee."user_id", ee."exercise_id", b."kind" ORDER BY ee."executed_at", ee."id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
)
SELECT "user_id", "exercise_id", "kind", "value", "reps", "weight", "executed_at", "execution_id", "training_execution_id", "set_index",
  "previous_value", "value" = "best_value"
FROM "candidates"
WHERE "previous_value" IS NULL OR "value" > "previous_value"
ORDER BY "executed_at", "execution_id", "rank";
