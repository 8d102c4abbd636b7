import { getTableColumns, sql, type SQL } from "drizzle-orm";
import { rowFromJson, rowJson } from "../../platform/db/json.js";
import type { Bound } from "../../platform/db/prepared.js";
import { liveExerciseIdsOf, livePartiesOfExercises } from "../access/assignments.js";
import { exerciseVisibleTo } from "../access/content.js";
import type { ContentReader } from "../access/readers.js";
import { creatorJson, type AuthorInclude } from "../users/user.fragments.js";
import { exercises } from "../../tables/exercise.table.js";

/*
 * An exercise as the JSON a tree read in one statement carries (a training's lines, a plan's trainings), under
 * access's rule of who may see it.
 */

/** The relations read along with an exercise (its author), and the keys of its JSON object read (all when not said). */
export interface ExerciseInclude extends AuthorInclude {
  keys?: string[];
}

/** The keys exerciseJson can write: the columns' (named as the Exercise type's fields), and `creator`. */
export const EXERCISE_JSON_KEYS = [...Object.keys(getTableColumns(exercises)), "creator"];

/**
 * The enclosing query's `exercises` row as a JSON object (its columns, and `creator` when included; only the keys
 * `include` names, when it does), or null when the caller may not see it: what the exercise loader, then the author
 * loader, would have answered.
 */
export function exerciseJson(caller: ContentReader, include: ExerciseInclude): SQL {
  const object = rowJson(exercises, creatorJson(exercises.createdBy, include), include.keys);
  const visible = exerciseVisibleTo(caller);
  return visible ? sql`case when ${visible} then ${object} end` : object;
}

/** An exercise row as exerciseJson wrote it (its instants back to Dates; `creator` left as it came). */
export const exerciseRowFromJson = (json: Record<string, unknown>) => rowFromJson(exercises, json);

/*
 * Who hears of exercises in the change feed (contract §13.3): an exercise is in the feed of its creator and of both
 * parties of each PENDING or ACTIVE assignment whose plan schedules a training holding it.
 */

/** The exercises in `userId`'s feed, as an id subquery. */
export function exercisesInFeedOf(userId: Bound<number>): SQL {
  return sql`select ${exercises.id} from ${exercises} where ${exercises.createdBy} = ${userId} union ${liveExerciseIdsOf(userId)}`;
}

/** (exercise id, user id): who hears of the exercises of `exerciseIds` (a subquery). */
export function exerciseFeedAudience(exerciseIds: SQL): SQL {
  return sql`select ${exercises.id}, ${exercises.createdBy} from ${exercises} where ${exercises.id} in (${exerciseIds})
    union all ${livePartiesOfExercises(exerciseIds)}`;
}
