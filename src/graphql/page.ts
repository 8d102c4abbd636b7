import { ClassType, Field, InputType, Int, ObjectType } from "type-graphql";
import { parsePageRequest, type PageRequest, type Paging } from "../platform/paging.js";
import type { Selection } from "./look-ahead.js";

/** Paging arguments of every root list field (contract §10). */
@InputType("PageInput")
export class PageInput {
  @Field(() => Int, { nullable: true }) page?: number;
  @Field(() => Int, { nullable: true }) size?: number;
  @Field(() => [String], { nullable: true, description: 'e.g. ["createdAt,desc"]' }) sort?: string[];
}

/** A page of `Item`: the subset of the REST page object that GraphQL clients use. */
export function PageOf<Item extends object>(item: ClassType<Item>, name: string) {
  @ObjectType(name, { simpleResolvers: true })
  class Page {
    @Field(() => [item]) content!: Item[];
    @Field(() => Int) totalElements!: number;
    @Field(() => Int) totalPages!: number;
    @Field(() => Int) number!: number;
    @Field(() => Int) size!: number;
  }
  return Page;
}

/** The page a PageInput asks for, read as REST reads `page`, `size` and `sort`; a field sent as null is one not given. */
export const pageRequestOf = (page: PageInput | null | undefined, paging: Paging): PageRequest =>
  parsePageRequest({ page: page?.page ?? undefined, size: page?.size ?? undefined, sort: page?.sort ?? undefined }, paging);

/**
 * Whether a selection of a PageOf shows its total (totalElements or totalPages, under any alias or fragment): a page
 * read for a selection without one need not count every row the filter keeps.
 */
export const totalShown = (page: Selection | undefined): boolean => Boolean(page?.field("totalElements") ?? page?.field("totalPages"));
