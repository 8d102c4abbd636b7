-- Estimated one-rep maxes follow contract §7: only completed weighted sets of 1 to 12 repetitions give one (w × (1 + r/30),
-- rounded half up), and a single repetition gives its weight. Recomputes the stored best of the executions that have one.
UPDATE "exercise_executions" ee SET "best_one_rep_max" = x."estimate"
FROM (
  SELECT e."id", (
    SELECT max(CASE WHEN s."repetitions" = 1 THEN s."weight" ELSE round(s."weight" * (30 + s."repetitions") / 30, 2) END)
    FROM "execution_sets" s
    WHERE s."exercise_execution_id" = e."id" AND s."completed" AND s."weight" IS NOT NULL AND s."repetitions" BETWEEN 1 AND 12
  ) AS "estimate"
  FROM "exercise_executions" e
  WHERE e."best_one_rep_max" IS NOT NULL
) x
WHERE x."id" = ee."id" AND ee."best_one_rep_max" IS DISTINCT FROM x."estimate";
