import { eq, getTableColumns, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { jsonRows, rowFromJson, rowJson } from "../../platform/db/json.js";
import type { Bound } from "../../platform/db/prepared.js";
import { privateContentVisibleTo, type ContentReader } from "../exercises/content-visibility.js";
import { exerciseJson, type ExerciseInclude } from "../exercises/exercise.fragments.js";
import { exercises } from "../../tables/exercise.table.js";
import { livePartiesOfTrainings, liveTrainingIdsOf } from "../training-plans/training-plan.fragments.js";
import { trainingExercises, trainings } from "../../tables/training.table.js";

/*
 * The training rules other modules' queries embed, as SQL fragments: the exercises module, below trainings in the
 * service graph, asks which trainings hold an exercise without a service cycle; a plan read as one tree carries its
 * trainings as the JSON below, under the same visibility rule as a training read alone.
 */

/** The ids of the trainings that hold an exercise (a column or an id), as an SQL subquery. */
export function trainingIdsHoldingExercise(exerciseId: AnyColumn | number): SQL {
  return sql`select ${trainingExercises.trainingId} from ${trainingExercises} where ${trainingExercises.exerciseId} = ${exerciseId}`;
}

/** The visibility rule of a training, as a SQL condition (undefined: everything). */
export function trainingVisibleTo(caller: ContentReader): SQL | undefined {
  if (caller?.isAdmin) return undefined;
  if (!caller) return eq(trainings.isPublic, true);
  return or(eq(trainings.isPublic, true), privateContentVisibleTo(caller, trainings.createdBy, sql`${trainings.id}`));
}

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
 * The relations read along with a training (its lines' exercises), and the keys of its JSON object and of its lines'
 * read (all when not said).
 */
export interface TrainingInclude {
  exercise?: ExerciseInclude;
  keys?: string[];
  lineKeys?: string[];
}

/** The keys trainingJson can write: the columns' and `lines`. */
export const TRAINING_JSON_KEYS = [...Object.keys(getTableColumns(trainings)), "lines"];
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
  const object = rowJson(trainings, { lines: linesJson(caller, include) }, include.keys);
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

/** The exercises the trainings of `trainingIds` (a subquery) hold, as an id subquery. */
export function exerciseIdsOfTrainings(trainingIds: SQL): SQL {
  return sql`select ${trainingExercises.exerciseId} from ${trainingExercises} where ${trainingExercises.trainingId} in (${trainingIds})`;
}

/** The trainings in `userId`'s feed, as an id subquery. */
export function trainingsInFeedOf(userId: Bound<number>): SQL {
  return sql`select ${trainings.id} from ${trainings} where ${trainings.createdBy} = ${userId} union ${liveTrainingIdsOf(userId)}`;
}

/** (training id, user id): who hears of the trainings of `trainingIds` (a subquery). */
export function trainingFeedAudience(trainingIds: SQL): SQL {
  return sql`select ${trainings.id}, ${trainings.createdBy} from ${trainings} where ${trainings.id} in (${trainingIds})
    union all ${livePartiesOfTrainings(trainingIds)}`;
}

/** (exercise id, user id): the parties of live assignments whose plans schedule a training holding one of `exerciseIds`. */
export function livePartiesOfExercises(exerciseIds: SQL): SQL {
  const holding = sql`select ${trainingExercises.trainingId} from ${trainingExercises} where ${trainingExercises.exerciseId} in (${exerciseIds})`;
  return sql`select ${trainingExercises.exerciseId}, live.user_id from ${trainingExercises}
    join (${livePartiesOfTrainings(holding)}) as live(training_id, user_id) on live.training_id = ${trainingExercises.trainingId}
    where ${trainingExercises.exerciseId} in (${exerciseIds})`;
}

/** The exercises of the trainings of `userId`'s live assignments, as an id subquery. */
export function liveExerciseIdsOf(userId: Bound<number>): SQL {
  return exerciseIdsOfTrainings(liveTrainingIdsOf(userId));
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
