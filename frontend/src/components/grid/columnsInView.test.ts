import { describe, expect, it } from "vitest";
import { columnsInView } from "./DataGrid";

/** The left edges of n columns of width w after a gutter of 40, and the right edge of the last. */
const edgesOf = (n: number, w: number) => Array.from({ length: n + 1 }, (_, i) => 40 + i * w);

describe("the columns a row renders (issue 42, target 5: wide tables)", () => {
  it("a table no wider than three views renders every column, wherever it is scrolled", () => {
    const edges = edgesOf(8, 220); // 1,760 px, as the demo's Article
    expect(columnsInView(edges, 0, 1000)).toEqual({ start: 0, end: 8 });
    expect(columnsInView(edges, 760, 1000)).toEqual({ start: 0, end: 8 });
  });

  it("a wider table renders the columns within 240 px of the view, each side", () => {
    const edges = edgesOf(50, 200); // 10,000 px
    // the view [2,000, 3,000) plus 240 px each side: [1,760, 3,240)
    const { start, end } = columnsInView(edges, 2000, 1000);
    expect(edges[start]).toBeLessThanOrEqual(1760);
    expect(edges[start + 1]).toBeGreaterThan(1760);
    expect(edges[end - 1]).toBeLessThan(3240);
    expect(edges[end]).toBeGreaterThanOrEqual(3240);
    expect(columnsInView(edges, 0, 1000)).toEqual({ start: 0, end: 6 }); // [40, 1,240): the view and 240 px
    expect(columnsInView(edges, 9000, 1000).end).toBe(50);
  });
});
