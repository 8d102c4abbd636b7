import type { EmbeddingContext } from "../../graphql/embedded.js";
import type { Selection } from "../../graphql/look-ahead.js";
import { userInclude } from "../users/user.include.js";
import { LINK_KEYS, type LinkInclude } from "./link.repository.js";

/**
 * What a selection of Link reads in the statement that reads the links: of each link only the keys it reads; its
 * parties as their selections read them (user trees, with the relations of User other modules embed: executions).
 */
export function linkInclude(link: Selection | undefined, ctx: EmbeddingContext): LinkInclude {
  const student = link?.field("student");
  const personal = link?.field("personal");
  return {
    keys: link?.keysOf(LINK_KEYS, { student: [], personal: [] }),
    ...(student && { student: userInclude(student, ctx) }),
    ...(personal && { personal: userInclude(personal, ctx) }),
  };
}
