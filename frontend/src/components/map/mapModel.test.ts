import { describe, expect, it } from "vitest";
import {
  chooseVector,
  colouring,
  defaultColour,
  fit,
  labelColumn,
  nearestInDirection,
  nearestTo,
  rampColours,
  sizes,
  toggled,
  CATEGORY_COLOURS,
  NO_VALUE_COLOUR,
  OTHER_COLOUR,
  RAMP,
  type Direction,
} from "./mapModel";
import type { ColumnKind } from "../../api";

// A map column as the backend sends it: the database's type and the portable kind beside it.
const KINDS: Record<string, ColumnKind> = { text: "text", int: "integer", number: "number", boolean: "boolean", date: "datetime" };
const col = (name: string, type: string, values: (string | null)[]) => ({ name, type, kind: KINDS[type] ?? "other", values });

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
    expect(c.legend.map((l) => l.label)).toEqual(["0 – 49,999", "50,000 – 99,999", "100,000 – 149,999", "150,000 – 199,999"]);
    expect(c.legend.map((l) => l.count)).toEqual([50_000, 50_000, 50_000, 50_000]);
    expect(c.scale).toMatchObject({ min: "0", mid: "100,000", max: "199,999" });
    expect(c.colours[c.values[0]]).toBe(RAMP[0]);
    expect(c.colours[c.values[199_999]]).toBe(RAMP[RAMP.length - 1]);
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

  it("colours by a number along a ramp from its smallest value to its largest; a missing one grey, apart from the smallest, and listed", () => {
    const c = colouring(3, col("citations", "int", ["10", null, "30"]));
    expect(c.kind).toBe("continuous");
    const drawn = c.values.map((v) => c.colours[v]);
    expect(drawn).toEqual([RAMP[0], NO_VALUE_COLOUR, RAMP[RAMP.length - 1]]);
    expect(drawn[1]).not.toBe(drawn[0]);
    expect(RAMP).not.toContain(NO_VALUE_COLOUR);
    expect(rampColours()).not.toContain(NO_VALUE_COLOUR);
    expect(c.scale).toEqual({ min: "10", mid: "20", max: "30", gradient: `linear-gradient(to right, ${RAMP.join(", ")})` });
    expect(c.legend.map((l) => [l.label, l.count, l.points])).toEqual([
      ["10", 1, [0]],
      ["30", 1, [2]],
      ["no value", 1, [1]],
    ]);
    expect(c.legend[2]).toMatchObject({ colour: NO_VALUE_COLOUR, missing: true });
    // sized, a missing value is the smallest
    expect(sizes(3, col("citations", "int", ["10", null, "30"]))).toEqual([0, 0, 1]);
  });

  it("a number's legend is its quartile ranges, each selecting its points; ties keep a value in one range", () => {
    const c = colouring(9, col("rating", "number", ["1", "2", "3", "4", "5", "6", "7", "8", null]));
    expect(c.legend.map((l) => l.label)).toEqual(["1 – 2", "3 – 4", "5 – 6", "7 – 8", "no value"]);
    expect(c.legend.map((l) => l.points)).toEqual([[0, 1], [2, 3], [4, 5], [6, 7], [8]]);
    expect(c.legend[0].colour).not.toBe(c.legend[3].colour);
    const ties = colouring(6, col("stars", "int", ["5", "5", "5", "5", "5", "1"]));
    // the quartiles of 1, 5, 5, 5, 5, 5 are all 5: one range
    expect(ties.legend.map((l) => [l.label, l.count])).toEqual([["1 – 5", 6]]);
    // every point with a value is in exactly one range
    const all = ties.legend.flatMap((l) => l.points).sort();
    expect(all).toEqual([0, 1, 2, 3, 4, 5]);
    expect(colouring(2, col("n", "int", [null, null])).legend).toEqual([{ label: "no value", colour: NO_VALUE_COLOUR, count: 2, points: [0, 1], missing: true }]);
    expect(colouring(2, col("n", "int", [null, null])).scale).toBeUndefined();
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
    // a 13th value in the last row still leaves a column out (the count stops only past 12)
    const rows = [...Array(1000).keys()].map((i) => String(i % 12));
    const twelve = col("twelve", "text", rows);
    const late = col("late", "text", [...rows.slice(0, -1), "the thirteenth"]);
    expect(defaultColour([late, twelve])).toBe("twelve");
    expect(defaultColour([late])).toBe("");
  });
});

describe("the map's keyboard cursor (issue 22: keyboard access to the selection)", () => {
  // a plus sign around the middle point 0, with a far point 5 up and to the right, y up
  //            5 (3, 3)
  //      1 (0, 1)
  // 4 (-2, 0)  0 (0, 0)   2 (1, 0.2)
  //      3 (0, -1)
  const x = Float32Array.from([0, 0, 1, 0, -2, 3]);
  const y = Float32Array.from([0, 1, 0.2, -1, 0, 3]);
  const cases: [string, number, Direction, number | null][] = [
    ["up from the middle: the point straight above", 0, "up", 1],
    ["down from the middle", 0, "down", 3],
    ["right from the middle: slightly off the axis, but within 45 degrees", 0, "right", 2],
    ["left from the middle: the far one straight ahead", 0, "left", 4],
    ["up from the top: none within 45 degrees, so the nearest ahead (the far corner)", 1, "up", 5],
    ["right from the top: the nearest within 45 degrees, not the far corner", 1, "right", 2],
    ["left from the top: the far left point, down within 45 degrees", 1, "left", 4],
    ["up from the far corner: nothing ahead, the cursor stays", 5, "up", null],
    ["right from the far corner: nothing ahead", 5, "right", null],
    ["down from the bottom: nothing ahead", 3, "down", null],
  ];
  it.each(cases)("%s", (_rule, from, dir, want) => {
    expect(nearestInDirection(x, y, from, dir)).toBe(want);
  });

  it("prefers a point straight ahead to one as near off to the side", () => {
    // from 0: 1 is 1 ahead and 0.9 aside (within 45 degrees), 2 is 1.2 straight ahead
    expect(nearestInDirection([0, 1, 1.2], [0, 0.9, 0], 0, "right")).toBe(2);
  });

  it("reaches each of several points drawn on one place: right and down to the later, left and up to the earlier", () => {
    const xs = [0, 0, 0, 5];
    const ys = [0, 0, 0, 0];
    expect(nearestInDirection(xs, ys, 0, "right")).toBe(1);
    expect(nearestInDirection(xs, ys, 1, "right")).toBe(2);
    expect(nearestInDirection(xs, ys, 2, "right")).toBe(3);
    expect(nearestInDirection(xs, ys, 2, "left")).toBe(0);
    expect(nearestInDirection(xs, ys, 0, "left")).toBeNull();
  });

  it("starts at the point nearest the middle; none without points", () => {
    expect(nearestTo(x, y, 0.1, 0.1)).toBe(0);
    expect(nearestTo(x, y, 2.5, 2.5)).toBe(5);
    expect(nearestTo([], [], 0, 0)).toBeNull();
  });

  it("Space adds the cursor's point to the selection or takes it out", () => {
    expect(toggled([1, 2], 3)).toEqual([1, 2, 3]);
    expect(toggled([1, 2, 3], 2)).toEqual([1, 3]);
    expect(toggled([], 0)).toEqual([0]);
  });
});

describe("the vector a map draws", () => {
  it.each([
    ["a single vector: its own", { namedVectors: [], ownVector: false }, null, ""],
    ["only named vectors: the first, unasked", { namedVectors: ["title_vec", "body_vec"], ownVector: false }, null, "title_vec"],
    ["only named vectors: the one searched", { namedVectors: ["title_vec", "body_vec"], ownVector: false }, "body_vec", "body_vec"],
    ["only named vectors: not its own (it has none)", { namedVectors: ["title_vec", "body_vec"], ownVector: false }, "", "title_vec"],
    ["its own beside named ones: its own unasked", { namedVectors: ["title_vec"], ownVector: true }, null, ""],
    ["its own beside named ones: the named one searched", { namedVectors: ["title_vec"], ownVector: true }, "title_vec", "title_vec"],
    ["a vector it does not have: the default", { namedVectors: ["title_vec"], ownVector: true }, "gone", ""],
  ] as const)("%s", (_rule, settings, wanted, want) => {
    expect(chooseVector({ namedVectors: [...settings.namedVectors], ownVector: settings.ownVector }, wanted)).toBe(want);
  });
});
