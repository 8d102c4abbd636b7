import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { trainingExercises } from "./training.table.js";

/*
 * The training rules other modules' queries embed, as SQL fragments: the exercises module, below trainings in the
 * service graph, asks which trainings hold an exercise without a service cycle.
 */

/** The ids of the trainings that hold an exercise (a column or an id), as an SQL subquery. */
export function trainingIdsHoldingExercise(exerciseId: AnyColumn | number): SQL {
  return sql`select ${trainingExercises.trainingId} from ${trainingExercises} where ${trainingExercises.exerciseId} = ${exerciseId}`;
}
