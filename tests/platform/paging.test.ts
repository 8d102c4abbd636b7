import { describe, expect, it } from "vitest";
import { AppError } from "../../src/platform/errors.js";
import { parsePageRequest, type Paging } from "../../src/platform/paging.js";

const paging: Paging = { sortable: ["name", "createdAt"], fallbackSort: [{ field: "name", direction: "asc" }] };

describe("parsePageRequest", () => {
  it("keeps a field's first order only, so a sort repeated a thousand times orders by each field once", () => {
    const sort = [...Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? "name,desc" : "name,asc")), "createdAt", "createdAt,desc"];
    expect(parsePageRequest({ sort }, paging).sort).toEqual([
      { field: "name", direction: "desc" },
      { field: "createdAt", direction: "asc" },
    ]);
  });

  it("still refuses an unknown field among repeated ones", () => {
    expect(() => parsePageRequest({ sort: ["name,asc", "name,asc", "password,asc"] }, paging)).toThrow(AppError);
  });
});
