import { describe, expect, it } from "vitest";
import { gridKeys, keyFilters, keyId, keyOf, keyOfCells, keysFilters, keyText, keyValueText, missingKeyColumns, typedKey } from "./rowKey";
import { splitList } from "../components/grid/filterModel";
import { column, grid } from "../test/fakeApi";

const U = "00000000-0000-4000-8000-000000000001";

describe("a row's key (issue 37, item 3: rows keyed by their primary key)", () => {
  it("keyOf is the row's key columns' cells, in the key's order", () => {
    expect(keyOf({ uuid: U, title: "t" }, ["uuid"])).toEqual({ uuid: U });
    expect(Object.keys(keyOf({ id: 7, title: "t", tenant: "north" }, ["tenant", "id"]) ?? {})).toEqual(["tenant", "id"]);
  });

  it("keyOf is null when a key column is missing or null, or the table has no key", () => {
    expect(keyOf({ title: "t" }, ["uuid"])).toBeNull(); // an editor result without the key selected
    expect(keyOf({ tenant: "north", id: null }, ["tenant", "id"])).toBeNull();
    expect(keyOf({ uuid: U }, [])).toBeNull();
  });

  it("keyOfCells reads a key from cells in the order of their columns (a grid row, a map point)", () => {
    expect(keyOfCells(["title", "id", "tenant"], ["t", "7", "north"], ["tenant", "id"])).toEqual({ tenant: "north", id: "7" });
    expect(keyOfCells(["title"], ["t"], ["uuid"])).toBeNull();
  });

  it("gridKeys are the keys of a grid's rows that have one, in order", () => {
    const columns = [column("id"), column("title")];
    expect(gridKeys(grid([["1", "a"], [null, "b"], ["3", "c"]], { columns }), ["id"])).toEqual([{ id: "1" }, { id: "3" }]);
    expect(gridKeys(grid([["1", "a"]], { columns }), [])).toEqual([]);
  });

  it("keyId is one id whatever the object's order, and a number and its text are one row", () => {
    const pk = ["a", "b"];
    expect(keyId({ a: 1, b: "x" }, pk)).toBe(keyId({ b: "x", a: 1 }, pk));
    expect(keyId({ a: 1, b: "x" }, pk)).toBe(keyId({ a: "1", b: "x" }, pk));
    expect(keyId({ a: 1, b: "x" }, pk)).not.toBe(keyId({ a: "x", b: 1 }, pk));
  });

  it("keyId never looks like the grid's names of rows not stored", () => {
    expect(keyId({ id: "new:1" }, ["id"])).not.toBe("new:1");
    expect(keyId({ id: "row:3" }, ["id"])).not.toBe("row:3");
  });

  it("keyText is the value alone for a one-column key: a Weaviate row reads as its uuid", () => {
    expect(keyText({ uuid: U }, ["uuid"])).toBe(U);
    expect(keyText({ id: 42 }, ["id"])).toBe("42");
  });

  it("keyText is col=value pairs in the key's order for several columns (by name when the order is not given)", () => {
    expect(keyText({ id: 7, tenant: "north" }, ["tenant", "id"])).toBe("tenant=north, id=7");
    expect(keyText({ tenant: "north", id: 7 })).toBe("id=7, tenant=north");
  });

  it("keyValueText writes text as it is, numbers by their digits, booleans as true or false", () => {
    expect([keyValueText("a b"), keyValueText(42), keyValueText(1.5), keyValueText(true), keyValueText(null)]).toEqual(["a b", "42", "1.5", "true", ""]);
  });

  it("a typed key is sent trimmed, key columns only; a key column left blank is missing", () => {
    const pk = ["tenant", "id"];
    expect(typedKey({ tenant: " north ", id: "7", title: "x" }, pk)).toEqual({ tenant: "north", id: "7" });
    expect(typedKey({ tenant: "", id: "  " }, pk)).toEqual({});
    expect(missingKeyColumns({ tenant: "north", id: " " }, pk)).toEqual(["id"]);
    expect(missingKeyColumns({}, pk)).toEqual(["tenant", "id"]);
  });

  it("keyFilters choose the one row: an equality per key column", () => {
    expect(keyFilters({ uuid: U }, ["uuid"])).toEqual([{ column: "uuid", operator: "equals", value: U, value2: "" }]);
    expect(keyFilters({ tenant: "north", id: 7 }, ["tenant", "id"])).toEqual([
      { column: "tenant", operator: "equals", value: "north", value2: "" },
      { column: "id", operator: "equals", value: "7", value2: "" },
    ]);
  });

  it("keysFilters choose these rows: an in list per key column, a value with a comma quoted as the backend reads it", () => {
    expect(keysFilters([{ uuid: "u1" }, { uuid: "u2" }], ["uuid"])).toEqual([{ column: "uuid", operator: "in", value: "u1, u2", value2: "" }]);
    const f = keysFilters([{ tenant: "north, east", id: 1 }, { tenant: "north, east", id: 2 }], ["tenant", "id"]);
    expect(f.map((x) => x.value)).toEqual(['"north, east"', "1, 2"]);
    expect(splitList(f[0].value)).toEqual(["north, east"]);
  });
});
