import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { trainingExercises } from "../../tables/training.table.js";
import { planTrainings } from "../../tables/training-plan.table.js";

/*
 * What holds what, as id subqueries: a training's lines hold exercises, a plan schedules trainings. Content is seen
 * and heard of through what holds it (a plan's assignees see its trainings and their exercises), so the rules of
 * this module walk these relations.
 */

/** The ids of the trainings that hold an exercise (a column or an id), as an SQL subquery. */
export function trainingIdsHoldingExercise(exerciseId: AnyColumn | number): SQL {
  return sql`select ${trainingExercises.trainingId} from ${trainingExercises} where ${trainingExercises.exerciseId} = ${exerciseId}`;
}

/** The exercises the trainings of `trainingIds` (a subquery) hold, as an id subquery. */
export function exerciseIdsOfTrainings(trainingIds: SQL): SQL {
  return sql`select ${trainingExercises.exerciseId} from ${trainingExercises} where ${trainingExercises.trainingId} in (${trainingIds})`;
}

/** The ids of the plans that schedule a training, as an SQL subquery. */
export function planIdsScheduling(trainingId: AnyColumn | number): SQL {
  return sql`select ${planTrainings.planId} from ${planTrainings} where ${planTrainings.trainingId} = ${trainingId}`;
}
