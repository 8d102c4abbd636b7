import type { Context } from "../../graphql/context.js";
import type { Selection } from "../../graphql/look-ahead.js";
import { USER_EXECUTIONS_NEEDS, userExecutionsAhead } from "../executions/execution.include.js";
import { userKeys } from "../users/user.include.js";
import { LINK_KEYS } from "./link.repository.js";
import type { StudentsInclude } from "./link.service.js";

/** The keys of a link its relations' resolvers read (the user's id, when they resolve it through a loader). */
const LINK_RELATION_NEEDS = { student: ["studentId"], personal: ["personalId"] };

/**
 * What a selection of a page of a trainer's links reads ahead in the page's one statement: of the links and of their
 * students, only the keys it reads; the students it asks for, and their executions.
 */
export function studentsInclude(page: Selection, ctx: Pick<Context, "services" | "actor">): StudentsInclude {
  const content = page.field("content");
  const student = content?.field("student");
  return {
    keys: content?.keysOf(LINK_KEYS, LINK_RELATION_NEEDS),
    ...(student && { student: { embedded: userExecutionsAhead(student.field("executions"), ctx), keys: userKeys(student, USER_EXECUTIONS_NEEDS) } }),
  };
}
