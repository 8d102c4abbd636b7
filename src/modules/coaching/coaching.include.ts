import type { Selection } from "../../graphql/look-ahead.js";
import { LINK_KEYS } from "./link.repository.js";

/** The keys of a link its relations' resolvers read: the user's id their loader takes. */
const LINK_RELATION_NEEDS = { student: ["studentId"], personal: ["personalId"] };

/** The only keys of each link a selection of a page of links reads (LINK_KEYS), undefined for all of them. */
export const linkPageKeys = (page: Selection): string[] | undefined => page.field("content")?.keysOf(LINK_KEYS, LINK_RELATION_NEEDS);
