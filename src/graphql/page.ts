import { ClassType, Field, InputType, Int, ObjectType } from "type-graphql";

/** Paging arguments of every root list field (contract §10). */
@InputType("PageInput")
export class PageInput {
  @Field(() => Int, { nullable: true }) page?: number;
  @Field(() => Int, { nullable: true }) size?: number;
  @Field(() => [String], { nullable: true, description: 'e.g. ["createdAt,desc"]' }) sort?: string[];
}

/** A page of `Item`: the subset of the REST page object that GraphQL clients use. */
export function PageOf<Item extends object>(item: ClassType<Item>, name: string) {
  @ObjectType(name)
  class Page {
    @Field(() => [item]) content!: Item[];
    @Field(() => Int) totalElements!: number;
    @Field(() => Int) totalPages!: number;
    @Field(() => Int) number!: number;
    @Field(() => Int) size!: number;
  }
  return Page;
}

/** A PageInput as the raw paging parameters the services parse; a field sent as null is one not given. */
export const pageParams = (page?: PageInput | null) => ({ page: page?.page ?? undefined, size: page?.size ?? undefined, sort: page?.sort ?? undefined });
