import type { Selection } from "../../graphql/look-ahead.js";
import type { ReadAheadContext } from "../../graphql/read-ahead.js";
import { userInclude } from "../users/user.include.js";
import { LINK_KEYS } from "./link.repository.js";
import type { StudentsInclude } from "./link.service.js";

/** The keys of a link its relations' resolvers read (the user's id, when they resolve it through a loader). */
const LINK_RELATION_NEEDS = { student: ["studentId"], personal: ["personalId"] };

/**
 * What a selection of a page of a trainer's links reads ahead in the page's one statement: of the links and of their
 * students, only the keys it reads; the students it asks for, with the relations of User it asks for that other
 * modules embed (their executions).
 */
export function studentsInclude(page: Selection, ctx: ReadAheadContext): StudentsInclude {
  const content = page.field("content");
  const student = content?.field("student");
  return {
    keys: content?.keysOf(LINK_KEYS, LINK_RELATION_NEEDS),
    ...(student && { student: userInclude(student, ctx) }),
  };
}
