import { describe, expect, it } from "vitest";
import { column } from "../../test/fakeApi";
import { jsonValue, rowJSON, toTSV } from "./copy";

describe("copy as TSV and JSON (issue 14: copy cells or rows as TSV/JSON)", () => {
  it("a TSV field with a tab, a line break or a leading quote is quoted with its quotes doubled; NULL is empty", () => {
    const cols = [column("a"), column("b")];
    expect(toTSV(cols, [["x\ty", null], ['"q" start', 'in "middle"'], ["line\nbreak", ""]], false)).toBe(
      '"x\ty"\t\n"""q"" start"\tin "middle"\n"line\nbreak"\t',
    );
  });

  it("JSON types numbers, booleans, lists and vectors by column; an int beyond 2^53 stays text so no digit is lost", () => {
    expect(jsonValue(column("n", { type: "int" }), "9007199254740993")).toBe("9007199254740993");
    expect(jsonValue(column("n", { type: "int" }), "42")).toBe(42);
    expect(jsonValue(column("x", { type: "number" }), "2.5")).toBe(2.5);
    expect(jsonValue(column("b", { type: "boolean" }), "false")).toBe(false);
    expect(jsonValue(column("t", { type: "text[]", json: true }), '["a"]')).toEqual(["a"]);
    expect(jsonValue(column("v", { type: "vectors", json: true }), '{"t":[1,2]}')).toEqual({ t: [1, 2] });
    expect(jsonValue(column("d", { type: "date" }), "2024-01-01T00:00:00Z")).toBe("2024-01-01T00:00:00Z");
    expect(jsonValue(column("s"), null)).toBeNull();
    expect(JSON.parse(rowJSON([column("s"), column("n", { type: "int" })], ["x", "1"]))).toEqual({ s: "x", n: 1 });
  });
});
