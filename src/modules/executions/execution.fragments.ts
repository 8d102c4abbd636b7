import { sql, type SQL } from "drizzle-orm";
import { exerciseExecutions, trainingExecutions } from "./execution.table.js";

/*
 * Who hears of executions in the change feed (contract §13.3): their user. As rows (execution id, user id), for the
 * records other modules write when a change of theirs shows in an execution's DTO.
 */

/** Every training execution of `userId` (their DTOs show the user's name). */
export function trainingExecutionsOf(userId: number): SQL {
  return sql`select ${trainingExecutions.id}, ${trainingExecutions.userId} from ${trainingExecutions} where ${trainingExecutions.userId} = ${userId}`;
}

/** The training executions of a training (their DTOs name it by id: a deleted training leaves null). */
export function trainingExecutionsOfTraining(trainingId: number): SQL {
  return sql`select ${trainingExecutions.id}, ${trainingExecutions.userId} from ${trainingExecutions} where ${trainingExecutions.trainingId} = ${trainingId}`;
}

/** The exercise executions of a training (logged in its sessions or on their own). */
export function exerciseExecutionsOfTraining(trainingId: number): SQL {
  return sql`select ${exerciseExecutions.id}, ${exerciseExecutions.userId} from ${exerciseExecutions} where ${exerciseExecutions.trainingId} = ${trainingId}`;
}

/** The exercise executions of an exercise (their DTOs name it by id: a deleted exercise leaves null). */
export function exerciseExecutionsOfExercise(exerciseId: number): SQL {
  return sql`select ${exerciseExecutions.id}, ${exerciseExecutions.userId} from ${exerciseExecutions} where ${exerciseExecutions.exerciseId} = ${exerciseId}`;
}

/** The training executions holding an execution of an exercise (their DTOs list its exercise id). */
export function trainingExecutionsHoldingExercise(exerciseId: number): SQL {
  return sql`select ${exerciseExecutions.trainingExecutionId}, ${exerciseExecutions.userId} from ${exerciseExecutions}
    where ${exerciseExecutions.exerciseId} = ${exerciseId} and ${exerciseExecutions.trainingExecutionId} is not null`;
}
