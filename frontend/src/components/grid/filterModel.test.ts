import { describe, expect, it } from "vitest";
import { column } from "../../test/fakeApi";
import {
  arity,
  namedVector,
  checkScalar,
  describeFilter,
  describeFilters,
  joinedWithPrevious,
  toggleJoin,
  fromPicker,
  isRFC3339,
  operatorChoices,
  shortVector,
  splitList,
  toApiFilter,
  toPicker,
  unfilterableReason,
  validateFilter,
} from "./filterModel";

const numberOps = ["equals", "not_equals", "greater_than", "greater_or_equal", "less_than", "less_or_equal", "in", "not_in", "between"];
const textOps = ["equals", "not_equals", "contains", "not_contains", "starts_with", "ends_with", "in", "not_in"];
const available = (cs: ReturnType<typeof operatorChoices>) => cs.filter((c) => c.available).map((c) => c.op);
const unavailable = (cs: ReturnType<typeof operatorChoices>) => cs.filter((c) => !c.available).map((c) => c.op);

// The driver decides what a column offers and what it blocks with why (Column.filterable,
// Column.blocked; the Weaviate driver's rules are tested in its own package, filter_test.go):
// the menu shows exactly that, in the operators' order.
describe("operatorChoices", () => {
  it("offers exactly what the driver lists, and shows what it blocks as unavailable with its reason", () => {
    const c = column("wordCount", {
      type: "int",
      filterable: [...numberOps],
      blocked: { regex: "no regular expressions here", is_null: "is NULL needs an index, which Article does not enable" },
    });
    const cs = operatorChoices(c);
    expect(available(cs)).toEqual(numberOps);
    expect(unavailable(cs)).toEqual(["is_null", "regex"]);
    expect(cs.find((x) => x.op === "regex")?.reason).toBe("no regular expressions here");
    expect(cs.map((x) => x.op)).not.toContain("contains");
  });

  it("an operator neither offered nor blocked is not in the menu", () => {
    const c = column("title", { filterable: textOps, blocked: {} });
    const ops = operatorChoices(c).map((x) => x.op);
    expect(ops).toEqual(textOps);
    expect(ops).not.toContain("greater_than");
  });

  it("a column that offers nothing shows nothing, blocked or not", () => {
    expect(operatorChoices(column("v", { type: "vector", filterable: [], blocked: { regex: "no" } }))).toEqual([]);
  });

  it("the vector, objects and references offer nothing, and say why", () => {
    const v = column("vector", { type: "vector", filterable: [] });
    expect(operatorChoices(v)).toEqual([]);
    expect(unfilterableReason(v)).toMatch(/search near a vector/);
    expect(unfilterableReason(column("details", { type: "object", filterable: [] }))).toMatch(/type object/);
    expect(unfilterableReason(column("writtenBy", { type: "Author", filterable: [] }))).toMatch(/writtenBy \(Author\) cannot be filtered from the grid; filter it in the query editor/);
    expect(unfilterableReason(column("title"))).toBe("");
  });
});

describe("values", () => {
  it("accepts only full RFC 3339 timestamps for dates", () => {
    for (const ok of ["2024-01-31T00:00:00Z", "2024-02-29T23:59:59.123Z", "2024-01-31T10:00:00+02:00", "2024-01-31t10:00:00z"])
      expect(isRFC3339(ok), ok).toBe(true);
    for (const bad of ["2024-01-31", "2024-01-31T10:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-31T00:00:00", "yesterday"])
      expect(isRFC3339(bad), bad).toBe(false);
  });

  it("the date picker writes full RFC 3339 in UTC and reads it back", () => {
    expect(fromPicker("2024-01-31T10:05")).toBe("2024-01-31T10:05:00Z");
    expect(fromPicker("2024-01-31T10:05:07")).toBe("2024-01-31T10:05:07Z");
    expect(fromPicker("")).toBe("");
    expect(toPicker("2024-01-31T10:05:07Z")).toBe("2024-01-31T10:05:07");
    expect(toPicker("2024-01-31")).toBe("");
  });

  it("checks numbers, integers, booleans and UUIDs", () => {
    expect(checkScalar("int", "-42")).toBe("");
    expect(checkScalar("int", "4.2")).toMatch(/not an integer/);
    expect(checkScalar("number", "1e3")).toBe("");
    expect(checkScalar("number", "0x10")).toMatch(/not a number/);
    expect(checkScalar("number", "NaN")).toMatch(/not a number/);
    expect(checkScalar("boolean", "TRUE")).toBe("");
    expect(checkScalar("boolean", "yes")).toMatch(/true or false/);
    expect(checkScalar("uuid", "00000000-0000-4000-8000-000000000001")).toBe("");
    expect(checkScalar("uuid", "123")).toMatch(/not a UUID/);
    expect(checkScalar("text", "")).toBe("");
  });

  it("splits lists at commas, keeping quoted commas", () => {
    expect(splitList("a, b ,c")).toEqual(["a", "b", "c"]);
    expect(splitList('"a,b", c')).toEqual(["a,b", "c"]);
    expect(splitList('"open, c')).toBeNull();
    expect(splitList("a,,b")).toEqual(["a", "", "b"]);
  });

  it("validateFilter explains what does not fit, per operator and type", () => {
    const date = column("published", { type: "date" });
    const int = column("wordCount", { type: "int" });
    const text = column("title");
    expect(validateFilter(date, { operator: "less_than", value: "2024-01-01", value2: "" })).toMatch(/RFC 3339/);
    expect(validateFilter(date, { operator: "less_than", value: "2024-01-01T00:00:00Z", value2: "" })).toBe("");
    expect(validateFilter(int, { operator: "between", value: "5", value2: "" })).toMatch(/two bounds/);
    expect(validateFilter(int, { operator: "between", value: "9", value2: "5" })).toMatch(/lower bound is above/);
    expect(validateFilter(int, { operator: "between", value: "5", value2: "9" })).toBe("");
    expect(validateFilter(int, { operator: "in", value: "1, x", value2: "" })).toMatch(/"x" is not an integer/);
    expect(validateFilter(int, { operator: "in", value: "", value2: "" })).toMatch(/list is empty/);
    expect(validateFilter(text, { operator: "contains", value: "", value2: "" })).toMatch(/pattern is empty/);
    expect(validateFilter(text, { operator: "equals", value: "", value2: "" })).toBe("");
    expect(validateFilter(int, { operator: "equals", value: "", value2: "" })).toMatch(/value is needed/);
    expect(validateFilter(int, { operator: "is_null", value: "junk", value2: "" })).toBe("");
    expect(validateFilter(column("tags", { type: "text[]" }), { operator: "in", value: "a, b", value2: "" })).toBe("");
  });
});

describe("serialising", () => {
  it("sends values only where the operator takes them", () => {
    expect(arity("between")).toBe("two");
    expect(toApiFilter({ column: "c", operator: "is_null", value: "x", value2: "y" })).toEqual({ column: "c", operator: "is_null", value: "", value2: "" });
    expect(toApiFilter({ column: "c", operator: "equals", value: "x", value2: "y" })).toEqual({ column: "c", operator: "equals", value: "x", value2: "" });
    expect(toApiFilter({ column: "c", operator: "between", value: "1", value2: "2" })).toEqual({ column: "c", operator: "between", value: "1", value2: "2" });
  });

  it("describes a filter on one line", () => {
    expect(describeFilter({ column: "wordCount", operator: "between", value: "1", value2: "9" })).toBe("wordCount between 1 and 9");
    expect(describeFilter({ column: "tags", operator: "in", value: "a, b", value2: "" })).toBe("tags in list (a, b)");
    // a map's selection: hundreds of uuids name their first three and count the rest
    expect(describeFilter({ column: "uuid", operator: "in", value: "u1, u2, u3, u4, u5, u6, u7", value2: "" })).toBe("uuid in list (u1, u2, u3 and 4 more)");
    expect(describeFilter({ column: "summary", operator: "is_null", value: "", value2: "" })).toBe("summary is NULL");
    expect(describeFilter({ column: "title", operator: "regex", value: "^A", value2: "" })).toBe("title REGEX ^A");
  });

  it("shortens long vectors to their first numbers and length", () => {
    const v = JSON.stringify(Array.from({ length: 1536 }, (_, i) => i / 1000));
    expect(shortVector(v)).toBe("[0, 0.001, 0.002, 0.003, …] (1,536 values)");
    expect(shortVector("[0.1,0.2]")).toBe("[0.1,0.2]");
    expect(shortVector(`{"a":${v}}`)).toMatch(/^\{"a":\[0,0\.001.*…$/);
  });
});

describe("named vectors (issue 14: named vectors one column each or a picker)", () => {
  const cell = '{"body_vec":[0,2,0,0.5],"title_vec":[2,0,0.5],"multi":[[1,2],[3,4]]}';
  it("namedVector takes one member's JSON text without parsing the others", () => {
    expect(namedVector(cell, "title_vec")).toBe("[2,0,0.5]");
    expect(namedVector(cell, "body_vec")).toBe("[0,2,0,0.5]");
    expect(namedVector(cell, "multi")).toBe("[[1,2],[3,4]]");
    expect(namedVector(cell, "missing")).toBeNull();
    expect(namedVector('{"a": [1, 2]}', "a")).toBe("[1, 2]");
  });
});

describe("OR groups (issue 23)", () => {
  const f = (column: string, group = 0) => ({ column, operator: "equals", value: "x", value2: "", group });
  it("a click on the word between two chips joins them with or, and again with and", () => {
    const joined = toggleJoin([f("a"), f("b"), f("c")], 1);
    expect(joined.map((x) => x.group)).toEqual([1, 1, 0]);
    expect(joinedWithPrevious(joined, 1)).toBe(true);
    expect(joinedWithPrevious(joined, 2)).toBe(false);
    expect(toggleJoin(joined, 1).map((x) => x.group)).toEqual([0, 0, 0]);
  });
  it("each run of or is its own group, numbered in order", () => {
    let fs = toggleJoin([f("a"), f("b"), f("c"), f("d"), f("e")], 1);
    fs = toggleJoin(fs, 4);
    expect(fs.map((x) => x.group)).toEqual([1, 1, 0, 2, 2]);
    fs = toggleJoin(fs, 2);
    expect(fs.map((x) => x.group)).toEqual([1, 1, 1, 2, 2]);
    fs = toggleJoin(fs, 3);
    expect(fs.map((x) => x.group)).toEqual([1, 1, 1, 1, 1]);
  });
  it("says the condition in words, with parentheses where a group meets an and", () => {
    const fs = toggleJoin([f("a"), f("b"), f("c")], 1);
    expect(describeFilters(fs)).toBe("(a equals x or b equals x) and c equals x");
    expect(describeFilters(toggleJoin(fs, 2))).toBe("a equals x or b equals x or c equals x");
    expect(describeFilters([f("a"), f("b")])).toBe("a equals x and b equals x");
  });
  it("sends the group only when there is one", () => {
    expect(toApiFilter(f("a"))).not.toHaveProperty("group");
    expect(toApiFilter(f("a", 2))).toHaveProperty("group", 2);
  });
});
