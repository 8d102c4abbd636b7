import type { z } from "zod";
import type { ListQuery, PageRequest, Paging } from "../platform/paging.js";
import { parseQuery, type InputReader } from "../platform/validation.js";
import { pageRequestOf, type PageInput } from "./page.js";

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

/** The page a PageInput asks for. */
export function pageReader(page: PageInput | null | undefined, paging: Paging): InputReader<PageRequest> {
  return () => pageRequestOf(page, paging);
}

/** A listing's arguments: the page asked, read first (as REST reads it first), and the filter as `schema` reads it. */
export function listReader<S extends z.ZodType>(
  paging: Paging,
  schema: S,
  filter: object | null | undefined,
  page: PageInput | null | undefined,
): InputReader<ListQuery<z.output<S>>> {
  return () => ({ page: pageRequestOf(page, paging), filter: parseArguments(schema, filter) });
}
