import { z } from "zod";

const pages = new WeakMap<z.ZodType, z.ZodType>();

/** The page object of contract §2 around `item`, for the document of a paged answer (`<item's id>Page` when it has one). */
export function pageOf(item: z.ZodType): z.ZodType {
  let page = pages.get(item);
  if (!page) {
    const id = z.globalRegistry.get(item)?.id;
    page = pageSchema(item);
    if (id) page = page.meta({ id: `${id}Page`, description: `A page of ${id} items (contract §2)` });
    pages.set(item, page);
  }
  return page;
}

/** The page object of contract §2, as Spring Data writes it (the mobile apps read it so). */
function pageSchema(item: z.ZodType) {
  const count = z.number().int().min(0);
  const sortInfo = z
    .object({
      sorted: z.boolean().describe("true when the page was asked in an order"),
      unsorted: z.boolean().describe("The opposite of sorted"),
      empty: z.boolean().describe("true when no order was asked (as unsorted)"),
    })
    .describe("Whether an order was asked");
  return z
    .object({
      content: z.array(item).describe("The page's items, in the order asked"),
      pageable: z
        .object({
          sort: sortInfo,
          pageNumber: count.describe("The page's number, from 0"),
          pageSize: count.describe("The size asked"),
          offset: count.describe("How many items come before this page"),
          paged: z.literal(true).describe("Always true"),
          unpaged: z.literal(false).describe("Always false"),
        })
        .describe("The page asked"),
      totalPages: count.describe("How many pages the listing has at this size"),
      totalElements: count.describe("How many items the listing has"),
      last: z.boolean().describe("true on the last page"),
      first: z.boolean().describe("true on the first page"),
      sort: sortInfo,
      number: count.describe("The page's number, from 0"),
      numberOfElements: count.describe("How many items this page holds"),
      size: count.describe("The size asked"),
      empty: z.boolean().describe("true when this page holds no item"),
    })
    .describe("A page of a listing (contract §2)");
}
