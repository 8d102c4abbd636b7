import { getTableColumns, sql, type SQL } from "drizzle-orm";
import { jsonRows, rowFromJson, rowJson } from "../../platform/db/json.js";
import type { Bound } from "../../platform/db/prepared.js";
import { livePartiesOfTrainings, liveTrainingIdsOf } from "../access/assignments.js";
import { trainingVisibleTo } from "../access/content.js";
import type { ContentReader } from "../access/readers.js";
import { exerciseJson, type ExerciseInclude } from "../exercises/exercise.fragments.js";
import { creatorJson, type AuthorInclude } from "../users/user.fragments.js";
import { exercises } from "../../tables/exercise.table.js";
import { trainingExercises, trainings } from "../../tables/training.table.js";

/*
 * A training as the JSON a plan read as one tree carries, under access's rule of who may see it (the same as a training
 * read alone).
 */

/** What holds what is access's (its rules walk it); the writers that lock or name an audience by it ask here too. */
export { exerciseIdsOfTrainings, trainingIdsHoldingExercise } from "../access/holdings.js";

/** What a training's exercise line reads as (its exercise's name joined). */
export const lineFields = {
  id: trainingExercises.id,
  exerciseId: trainingExercises.exerciseId,
  exerciseName: exercises.name,
  sets: trainingExercises.sets,
  repetitions: trainingExercises.repetitions,
  weight: trainingExercises.weightKg,
  restSeconds: trainingExercises.restSeconds,
  order: trainingExercises.order,
  notes: trainingExercises.notes,
};

/**
 * The relations read along with a training (its author, its lines' exercises), and the keys of its JSON object and of
 * its lines' read (all when not said).
 */
export interface TrainingInclude extends AuthorInclude {
  exercise?: ExerciseInclude;
  keys?: string[];
  lineKeys?: string[];
}

/** The keys trainingJson can write: the columns', `lines` and `creator`. */
export const TRAINING_JSON_KEYS = [...Object.keys(getTableColumns(trainings)), "lines", "creator"];
/** The keys of a line linesJson can write: lineFields' and `exercise`. */
export const LINE_JSON_KEYS = [...Object.keys(lineFields), "exercise"];

/**
 * The lines of the enclosing query's `trainings` row, as a JSON array of lineFields objects in their order (only the
 * keys the include names, when it names them), each with its `exercise` (exerciseJson) when included.
 */
export function linesJson(caller: ContentReader, include: TrainingInclude): SQL {
  return jsonRows(
    include.exercise ? { ...lineFields, exercise: exerciseJson(caller, include.exercise) } : lineFields,
    sql`from ${trainingExercises} join ${exercises} on ${exercises.id} = ${trainingExercises.exerciseId} where ${trainingExercises.trainingId} = ${trainings.id}`,
    trainingExercises.position,
    include.lineKeys,
  );
}

/**
 * The enclosing query's `trainings` row as a JSON object (its columns and its `lines`; only the keys `include` names,
 * when it does), or null when the caller may not see it: what the training loader would have answered.
 */
export function trainingJson(caller: ContentReader, include: TrainingInclude): SQL {
  const object = rowJson(trainings, { lines: linesJson(caller, include), ...creatorJson(trainings.createdBy, include) }, include.keys);
  const visible = trainingVisibleTo(caller);
  return visible ? sql`case when ${visible} then ${object} end` : object;
}

/** A training row as trainingJson wrote it (its instants back to Dates; `lines` left as they came). */
export const trainingRowFromJson = (json: Record<string, unknown>) => rowFromJson(trainings, json);

/*
 * Who hears of trainings and exercises in the change feed (contract §13.3): a training is in the feed of its creator
 * and of both parties of each PENDING or ACTIVE assignment whose plan schedules it; the exercises of those trainings
 * in the parties' feeds too. Audiences are rows (entity id, user id); "in the feed of" are id subqueries.
 */

/** The trainings in `userId`'s feed, as an id subquery. */
export function trainingsInFeedOf(userId: Bound<number>): SQL {
  return sql`select ${trainings.id} from ${trainings} where ${trainings.createdBy} = ${userId} union ${liveTrainingIdsOf(userId)}`;
}

/** (training id, user id): who hears of the trainings of `trainingIds` (a subquery). */
export function trainingFeedAudience(trainingIds: SQL): SQL {
  return sql`select ${trainings.id}, ${trainings.createdBy} from ${trainings} where ${trainings.id} in (${trainingIds})
    union all ${livePartiesOfTrainings(trainingIds)}`;
}

/** (exercise id, user id): each exercise of the trainings of `trainingIds`, for each party of a live assignment scheduling that training. */
export function livePartiesOfTheirExercises(trainingIds: SQL): SQL {
  return sql`select ${trainingExercises.exerciseId}, live.user_id from ${trainingExercises}
    join (${livePartiesOfTrainings(trainingIds)}) as live(training_id, user_id) on live.training_id = ${trainingExercises.trainingId}`;
}

/** (exercise id, user id): each exercise the training of each (training id, user id) row of `pairs` holds, for that user. */
export function exercisesFor(pairs: SQL): SQL {
  return sql`select ${trainingExercises.exerciseId}, pair.user_id from (${pairs}) as pair(training_id, user_id)
    join ${trainingExercises} on ${trainingExercises.trainingId} = pair.training_id`;
}
