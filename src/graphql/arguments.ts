import type { z } from "zod";
import type { ListQuery, PageRequest, Paging } from "../platform/paging.js";
import { parseQuery, readerOf, type DatedInputReader, type DatedSchema, type InputReader, type RefusalMessage } from "../platform/validation.js";
import { pageRequestOf, type OrderBy, type PageInput } from "./page.js";

/**
 * GraphQL arguments standing for a query string's parameters (a filter input, or a field's own arguments), parsed by the
 * schema REST parses them with: the same typed input, the same `Parâmetro inválido: <name>`. An argument sent as null
 * is one not given.
 */
export function parseArguments<S extends z.ZodType>(schema: S, args: object | null | undefined): z.output<S> {
  const given = Object.entries(args ?? {}).filter(([, value]) => value !== null);
  return parseQuery(schema, Object.fromEntries(given));
}

/** Arguments as `schema` reads them. */
export function argumentsReader<S extends z.ZodType>(schema: S, args: object | null | undefined): InputReader<z.output<S>> {
  return () => parseArguments(schema, args);
}

/** The page a PageInput and a listing's `orderBy` ask for. */
export function pageReader(page: PageInput | null | undefined, paging: Paging, orderBy?: OrderBy | null): InputReader<PageRequest> {
  return () => pageRequestOf(page, paging, orderBy);
}

/** A listing's arguments: the page asked, read first (as REST reads it first), and the filter as `schema` reads it. */
export function listReader<S extends z.ZodType>(
  paging: Paging,
  schema: S,
  filter: object | null | undefined,
  page: PageInput | null | undefined,
  orderBy?: OrderBy | null,
): InputReader<ListQuery<z.output<S>>> {
  return () => ({ page: pageRequestOf(page, paging, orderBy), filter: parseArguments(schema, filter) });
}

/**
 * A mutation's input (its input object, or its arguments standing for a request body) as `schema` reads it: the rules
 * and messages REST reads the JSON body with. Null stays null, as in a JSON body (it clears a field, or means not
 * given where the schema says so). A dated schema reads it as of the `now` the service reads it at.
 */
export function inputReader<S extends z.ZodType>(schema: S, input: object, message?: RefusalMessage): InputReader<z.output<S>>;
export function inputReader<S extends z.ZodType>(schema: DatedSchema<S>, input: object): DatedInputReader<z.output<S>>;
export function inputReader<S extends z.ZodType>(schema: S | DatedSchema<S>, input: object, message?: RefusalMessage) {
  return readerOf(schema, input, message);
}
