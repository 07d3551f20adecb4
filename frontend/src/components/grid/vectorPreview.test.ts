import { describe, expect, it } from "vitest";
import { column } from "../../test/fakeApi";
import { previewCell, previewDimensions, withFullVectors } from "./vectorPreview";

describe("vector previews (issue 14: vectors shortened in the cell, full value on expand and copy)", () => {
  it("a cell shows the first numbers and the length", () => {
    expect(previewCell('{"dimensions":1536,"head":[0.1,-0.2,0.3,0.4]}')).toBe("[0.1, -0.2, 0.3, 0.4, …] (1,536 values)");
    expect(previewCell('{"dimensions":2,"head":[1,2]}')).toBe("[1, 2] (2 values)");
    expect(previewCell('{"dimensions":3,"head":[1,2,3],"multi":2}')).toBe("[1, 2, 3] (3 values × 2 vectors)");
  });
  it("named vectors show the one chosen, or say the row has none", () => {
    const cell = '{"title_vec":{"dimensions":3,"head":[1,2,3]},"body_vec":{"dimensions":768,"head":[4,5,6,7]}}';
    expect(previewCell(cell, "body_vec")).toBe("[4, 5, 6, 7, …] (768 values)");
    expect(previewCell(cell, "other")).toBe("no other");
    expect(previewDimensions(cell)).toBe("title_vec: 3 dimensions · body_vec: 768 dimensions");
  });
  it("copy and expand use the full vectors read by the rows' keys, by place; a row with no vector stays null", () => {
    const cols = [column("uuid", { type: "uuid" }), column("vector", { type: "vector", preview: true })];
    const rows = [
      ["a", '{"dimensions":2,"head":[1,2]}'],
      ["b", null],
      ["c", '{"dimensions":2,"head":[3,4]}'],
    ];
    expect(withFullVectors(cols, rows, ["[1,2]", null, null])).toEqual([
      ["a", "[1,2]"],
      ["b", null],
      ["c", null],
    ]);
  });
});
