import { z } from "zod";

/*
 * Building blocks of the answers' zod schemas (the modules' *.dto.ts): a DTO type is read from its schema, and the
 * OpenAPI document describes the same schema, so the two cannot drift apart.
 */

/** An instant: a Date in the DTO, its ISO 8601 text on the wire (the document says `date-time`). */
export const instant = z.date();
/** A calendar day: YYYY-MM-DD text. */
export const day = z.iso.date();
/** An integer of an answer: an id, a count. */
export const int = () => z.number().int();
