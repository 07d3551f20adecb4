import { describe, expect, it } from "vitest";
import { colouring, defaultColour, fit, labelColumn, sizes, CATEGORY_COLOURS, OTHER_COLOUR } from "./mapModel";

const col = (name: string, type: string, values: (string | null)[]) => ({ name, type, values });

describe("the map's encodings (issue 22)", () => {
  it("fits a layout into [-0.95, 0.95] with one scale, keeping its shape", () => {
    const { x, y } = fit(new Float32Array([0, 0, 10, 5, 20, 0]));
    expect(x[0]).toBeCloseTo(-0.95, 6);
    expect(x[1]).toBeCloseTo(0, 6);
    expect(x[2]).toBeCloseTo(0.95, 6);
    expect(y[1] - y[0]).toBeCloseTo(0.475, 5);
  });

  it("colours and sizes by a numeric column of 200,000 values (no spread of them as arguments, which overflows the stack)", () => {
    const values = [...Array(200_000).keys()].map((i) => String(i));
    const c = colouring(values.length, col("n", "int", values));
    expect(c.legend.map((l) => l.label)).toEqual(["0", "199,999"]);
    expect(c.values[199_999]).toBe(1);
    expect(sizes(values.length, col("n", "int", values))[100_000]).toBeCloseTo(0.5, 4);
  });

  it("colours by a text column's values, the 12 most frequent each a colour, the rest other", () => {
    const values = [...Array(14).keys()].flatMap((k) => Array(14 - k).fill(`t${k}`));
    const c = colouring(values.length, col("topic", "text", values));
    expect(c.kind).toBe("categorical");
    expect(c.legend.map((l) => l.label)).toEqual([...[...Array(12).keys()].map((k) => `t${k}`), "other"]);
    expect(c.legend[0]).toMatchObject({ colour: CATEGORY_COLOURS[0], count: 14 });
    expect(c.legend[12]).toMatchObject({ colour: OTHER_COLOUR, count: 3 });
    expect(c.legend[12].points).toEqual([values.length - 3, values.length - 2, values.length - 1]);
  });

  it("colours by a number along a ramp from its smallest value to its largest; a missing one at the start", () => {
    const c = colouring(3, col("citations", "int", ["10", null, "30"]));
    expect(c.kind).toBe("continuous");
    expect(c.values).toEqual([0, 0, 1]);
    expect(c.legend.map((l) => l.label)).toEqual(["10", "30"]);
  });

  it("sizes by a number, names points by title, and colours first by the text column of most values up to 12, else a boolean", () => {
    expect(sizes(3, col("rating", "number", ["1", "2", "3"]))).toEqual([0, 0.5, 1]);
    const many = [...Array(20).keys()].map(String);
    const cols = [
      col("abstract", "text", many),
      col("title", "text", many),
      col("kind", "text", many.map((v) => String(Number(v) % 2))),
      col("topic", "text", many.map((v) => String(Number(v) % 8))),
      col("open", "boolean", many.map((v) => String(Number(v) % 2 === 0))),
    ];
    expect(labelColumn(cols)?.name).toBe("title");
    expect(defaultColour(cols)).toBe("topic");
    expect(defaultColour([cols[0], cols[4]])).toBe("open");
  });
});
