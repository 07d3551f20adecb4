import { describe, expect, it } from "vitest";
import { countsByName, formatCount, rowRange, sortTables } from "./format";

describe("counts, row ranges and the tree's order", () => {
  it("sorts tables by name, ignoring case", () => {
    const names = sortTables([
      { name: "Author", description: "", multiTenant: false, kind: "", estimate: null, group: "", label: "" },
      { name: "article", description: "", multiTenant: false, kind: "", estimate: null, group: "", label: "" },
      { name: "Big", description: "", multiTenant: false, kind: "", estimate: null, group: "", label: "" },
    ]).map((t) => t.name);
    expect(names).toEqual(["article", "Author", "Big"]);
  });

  it("indexes counts by name", () => {
    expect(countsByName([{ name: "A", count: 3, estimated: false, message: "" }]).A.count).toBe(3);
  });

  it.each([
    [0, "0"],
    [10050, "10,050"],
    [1234567, "1,234,567"],
  ])("formatCount(%d) = %s", (n, want) => {
    expect(formatCount(n)).toBe(want);
  });

  it.each([
    [0, 100, undefined, "Rows 1–100"],
    [100, 100, 10050, "Rows 101–200 of 10,050"],
    [0, 0, 0, "No rows"],
    [0, 0, 5, "No rows of 5"],
    [200, 0, null, "No rows from row 201"],
  ])("rowRange(%d, %d, %s) = %s", (offset, rows, total, want) => {
    expect(rowRange(offset, rows, total)).toBe(want);
  });

  it("says the total is the database's estimate when the exact count ran past its time", () => {
    expect(rowRange(0, 100, 123456789, true)).toBe("Rows 1–100 of about 123,456,789");
  });
});
