import type { Selection } from "../../graphql/look-ahead.js";
import { AUTHOR_JSON_KEYS, type AuthorInclude } from "./user.fragments.js";

/** What a selection of a content object (Exercise, Training, TrainingPlan) asks of its author, `creator`. */
export function authorInclude(content: Selection): AuthorInclude {
  const creator = content.field("creator");
  return { creator: creator !== undefined, creatorKeys: creator?.keysOf(AUTHOR_JSON_KEYS) };
}
