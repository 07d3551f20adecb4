import type { MapPoints, RowKey } from "../../api";
import { keyOfCells, keyValueText } from "../../api/rowKey";

/** The categorical colours (12, distinct in light and dark themes), then the colour of "other" and of no value. */
export const CATEGORY_COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#17becf", "#bcbd22", "#7f3c8d"];
export const OTHER_COLOUR = "#9a9a9a";
/** The colour of a point with no value of a numeric colour column: a neutral grey, on no ramp. */
export const NO_VALUE_COLOUR = "#a3a3a3";
const MAX_CATEGORIES = CATEGORY_COLOURS.length;

/** A continuous ramp (viridis, 9 stops) for numeric colours. */
export const RAMP = ["#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962", "#addc30", "#fde725"];

/**
 * MAP_MAX_POINTS is how many points a map holds at most when no smaller sample is asked for
 * (MapRequest.max 0): the backend's vectormap.DefaultMaxPoints, said by the Sample chooser
 * (vectors wider than 160 numbers are held to fewer, never below 100,000: the subtitle says
 * when the points are a sample).
 */
export const MAP_MAX_POINTS = 1_000_000;

export type Column = MapPoints["columns"][number];

/** isNumeric: a column a point can be sized by, or coloured along a ramp. */
export function isNumeric(c: Column): boolean {
  return c.kind === "integer" || c.kind === "number";
}

/**
 * fit scales a layout into [-0.95, 0.95] on both axes with one scale (the picture keeps its
 * shape), centred: regl-scatterplot draws normalized device coordinates.
 */
export function fit(xy: Float32Array): { x: Float32Array; y: Float32Array } {
  const n = Math.floor(xy.length / 2);
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i], y = xy[2 * i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const span = Math.max(maxX - minX, maxY - minY) || 1;
  const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2;
  const s = 1.9 / span;
  const x = new Float32Array(n), y = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = (xy[2 * i] - cx) * s;
    y[i] = (xy[2 * i + 1] - cy) * s;
  }
  return { x, y };
}

export interface LegendItem {
  label: string;
  colour: string;
  count: number;
  /** The points of this item: its button selects them (the keyboard reaches every selection). */
  points: number[];
  /** The entry of the rows without a value. */
  missing?: boolean;
}

/** The ramp of a numeric colouring as the legend draws it: a gradient and its labels. */
export interface Scale {
  min: string;
  mid: string;
  max: string;
  /** The CSS gradient, smallest value to the left. */
  gradient: string;
}

/**
 * Colouring is each point's colour for the renderer (values[i] indexes colours; drawn as
 * categories, so a numeric column's missing values get a colour of their own) and the legend
 * that explains it.
 */
export interface Colouring {
  kind: "none" | "categorical" | "continuous";
  values: number[];
  colours: string[];
  legend: LegendItem[];
  /** A numeric column's ramp (kind continuous with values). */
  scale?: Scale;
}

/** How many colours a numeric column's values are drawn in: the ramp, finely interpolated. */
const RAMP_STEPS = 64;

/** rampColours are RAMP interpolated to `steps` colours. */
export function rampColours(steps = RAMP_STEPS): string[] {
  const rgb = RAMP.map((h) => [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16)));
  const out: string[] = [];
  for (let s = 0; s < steps; s++) {
    const t = (s / (steps - 1)) * (RAMP.length - 1);
    const i = Math.min(Math.floor(t), RAMP.length - 2);
    const f = t - i;
    const c = rgb[i].map((a, k) => Math.round(a + (rgb[i + 1][k] - a) * f));
    out.push("#" + c.map((v) => v.toString(16).padStart(2, "0")).join(""));
  }
  return out;
}

/** rampAt is the ramp's colour at t in [0, 1]. */
function rampAt(ramp: string[], t: number): string {
  return ramp[Math.max(0, Math.min(ramp.length - 1, Math.round(t * (ramp.length - 1))))];
}

/**
 * colouring colours points by a column: a numeric one along a ramp from its smallest value to
 * its largest, its legend the four quartile ranges (each selects its points) and the rows with
 * no value, drawn grey; any other by its values, the 12 most frequent each a colour, the rest
 * "other", a missing value "(none)".
 */
export function colouring(n: number, c: Column | undefined): Colouring {
  if (!c) return { kind: "none", values: new Array(n).fill(0), colours: [CATEGORY_COLOURS[0]], legend: [] };
  if (isNumeric(c)) return numericColouring(c);
  const counts = new Map<string, number>();
  for (const v of c.values) counts.set(v ?? "", (counts.get(v ?? "") ?? 0) + 1);
  const ranked = [...counts.entries()].filter(([k]) => k !== "").sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const kept = ranked.slice(0, MAX_CATEGORIES).map(([k]) => k);
  const index = new Map(kept.map((k, i) => [k, i]));
  const other = kept.length;
  const values = c.values.map((v) => (v !== null && index.has(v) ? index.get(v)! : other));
  const legend: LegendItem[] = kept.map((k, i) => ({ label: k, colour: CATEGORY_COLOURS[i], count: counts.get(k)!, points: [] }));
  const rest: LegendItem = { label: ranked.length > MAX_CATEGORIES ? "other" : "(none)", colour: OTHER_COLOUR, count: 0, points: [] };
  values.forEach((v, i) => (v === other ? rest.points.push(i) : legend[v].points.push(i)));
  rest.count = rest.points.length;
  if (rest.count > 0) legend.push(rest);
  return { kind: "categorical", values, colours: [...CATEGORY_COLOURS.slice(0, kept.length), OTHER_COLOUR], legend };
}

/**
 * numericColouring: each value's place between the smallest and the largest picks a colour of
 * the ramp; a missing one is NO_VALUE_COLOUR (the last colour), apart from the smallest. The
 * legend: the quartile ranges (by the values' ranks: each holds about a quarter of the rows
 * with a value; ties keep a value in one range, so there may be fewer), then "no value".
 */
function numericColouring(c: Column): Colouring {
  const { nums, lo, hi, count } = numbers(c);
  const ramp = rampColours();
  const span = hi - lo || 1;
  const none = ramp.length;
  const values = nums.map((v) => (Number.isFinite(v) ? Math.round(((v - lo) / span) * (ramp.length - 1)) : none));
  const legend: LegendItem[] = [];
  if (count > 0) {
    const sorted = Float64Array.from(nums.filter((v) => Number.isFinite(v))).sort();
    const q = (f: number) => sorted[Math.min(sorted.length - 1, Math.ceil(f * sorted.length) - 1)];
    const tops = [...new Set([q(0.25), q(0.5), q(0.75), hi])];
    const ranges = tops.map((top, k) => {
      const from = k === 0 ? lo : sorted.find((v) => v > tops[k - 1])!;
      return { from, top, item: { label: from === top ? fmt(top) : `${fmt(from)} – ${fmt(top)}`, colour: rampAt(ramp, ((from + top) / 2 - lo) / span), count: 0, points: [] as number[] } };
    });
    nums.forEach((v, i) => {
      if (!Number.isFinite(v)) return;
      const r = ranges.find((x) => v <= x.top) ?? ranges[ranges.length - 1];
      r.item.points.push(i);
    });
    for (const r of ranges) {
      r.item.count = r.item.points.length;
      legend.push(r.item);
    }
  }
  const missing: number[] = [];
  nums.forEach((v, i) => !Number.isFinite(v) && missing.push(i));
  if (missing.length > 0) legend.push({ label: "no value", colour: NO_VALUE_COLOUR, count: missing.length, points: missing, missing: true });
  return {
    kind: "continuous",
    values,
    colours: [...ramp, NO_VALUE_COLOUR],
    legend,
    scale: count > 0 ? { min: fmt(lo), mid: fmt((lo + hi) / 2), max: fmt(hi), gradient: `linear-gradient(to right, ${RAMP.join(", ")})` } : undefined,
  };
}

/** sizes is each point's size value in [0, 1] by a numeric column (the middle without one). */
export function sizes(n: number, c: Column | undefined): number[] {
  if (!c) return new Array(n).fill(0.5);
  const { nums, lo, hi } = numbers(c);
  const span = hi - lo || 1;
  return nums.map((v) => (Number.isFinite(v) ? (v - lo) / span : 0));
}

/** labelColumn is the column that names a point: title, name or label, else the first text column. */
export function labelColumn(columns: Column[]): Column | undefined {
  for (const n of ["title", "name", "label"]) {
    const c = columns.find((x) => x.name.toLowerCase() === n);
    if (c) return c;
  }
  return columns.find((c) => c.kind === "text");
}

/**
 * defaultColour picks a column to colour by at first: the text column with the most values up
 * to 12 (a topic, a category: what a reader looks for on a map), else a boolean one.
 */
export function defaultColour(columns: Column[]): string {
  let best = "";
  let most = 1;
  for (const c of columns) {
    if (c.kind !== "text") continue;
    // counted until past MAX_CATEGORIES: a million rows of a column with more values are left
    // at once, not read to the end (issue 42: 2 s of the first picture of a million points)
    const seen = new Set<string>();
    for (const v of c.values) {
      if (v !== null) seen.add(v);
      if (seen.size > MAX_CATEGORIES) break;
    }
    const distinct = seen.size;
    if (distinct > most && distinct <= MAX_CATEGORIES) {
      best = c.name;
      most = distinct;
    }
  }
  return best || (columns.find((c) => c.kind === "boolean")?.name ?? "");
}

/** pointKey is point i's row key, over the map's key columns (null: the table has no key). */
export function pointKey(points: Pick<MapPoints, "keyColumns" | "keys">, i: number): RowKey | null {
  return keyOfCells(points.keyColumns, points.keys[i] ?? [], points.keyColumns);
}

/** layoutRows is the layout as rows of text: each point's key cells, then x and y. */
export function layoutRows(keys: unknown[][], xy: Float32Array): (string | null)[][] {
  return keys.map((k, i) => [...k.map(keyValueText), String(xy[2 * i]), String(xy[2 * i + 1])]);
}

/**
 * numbers reads a numeric column: each value (NaN for none), the smallest and largest, and how
 * many there are. A loop, not Math.min(...values): 100,000 arguments overflow the stack.
 */
function numbers(c: Column): { nums: number[]; lo: number; hi: number; count: number } {
  const nums = c.values.map((v) => (v === null ? NaN : Number(v)));
  let lo = Infinity, hi = -Infinity, count = 0;
  for (const v of nums) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    count++;
  }
  return { nums, lo, hi, count };
}

/** fmt is a legend's number: whole numbers with separators, others to 4 significant digits (no exponent). */
export function fmt(v: number): string {
  if (Number.isInteger(v)) return v.toLocaleString("en-US");
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString("en-US");
  return String(Number(v.toPrecision(4)));
}

/** A way the keyboard cursor moves on the map. */
export type Direction = "up" | "down" | "left" | "right";

/**
 * nearestInDirection is the point the keyboard cursor goes to from point `from` with an arrow
 * key, in the map's coordinates (y up, as drawn): of the points ahead (farther in that
 * direction), the nearest within 45 degrees of it, the distance sideways counted twice, so a
 * point straight ahead wins over one as near off to the side; when none lies within 45
 * degrees, the nearest ahead. null when no point is ahead (the cursor stays). A point at the
 * same place as `from` is ahead to the right or down when it comes later in the order (left or
 * up when earlier), so the keys reach each of several points drawn on one place.
 */
export function nearestInDirection(x: ArrayLike<number>, y: ArrayLike<number>, from: number, dir: Direction): number | null {
  const fx = x[from], fy = y[from];
  let best = -1, bestScore = Infinity, wide = -1, wideScore = Infinity;
  for (let j = 0; j < x.length; j++) {
    if (j === from) continue;
    const dx = x[j] - fx, dy = y[j] - fy;
    let along = dir === "right" ? dx : dir === "left" ? -dx : dir === "up" ? dy : -dy;
    const across = Math.abs(dir === "right" || dir === "left" ? dy : dx);
    if (dx === 0 && dy === 0) along = (j > from) === (dir === "right" || dir === "down") ? Number.MIN_VALUE : -1;
    if (along <= 0) continue;
    const score = Math.hypot(along, across) + across;
    if (across <= along) {
      if (score < bestScore) [best, bestScore] = [j, score];
    } else if (score < wideScore) [wide, wideScore] = [j, score];
  }
  return best >= 0 ? best : wide >= 0 ? wide : null;
}

/** nearestTo is the point nearest (cx, cy): where the keyboard cursor starts. null without points. */
export function nearestTo(x: ArrayLike<number>, y: ArrayLike<number>, cx: number, cy: number): number | null {
  let best = -1, d = Infinity;
  for (let j = 0; j < x.length; j++) {
    const e = (x[j] - cx) ** 2 + (y[j] - cy) ** 2;
    if (e < d) [best, d] = [j, e];
  }
  return best >= 0 ? best : null;
}

/** toggled is the selection with point i added, or taken out when it was in it. */
export function toggled(selected: number[], i: number): number[] {
  return selected.includes(i) ? selected.filter((p) => p !== i) : [...selected, i];
}

/** The vectors a table offers a map: its own ("" by name) and its named ones. */
export interface VectorChoice {
  namedVectors: string[];
  ownVector: boolean;
}

/**
 * chooseVector is the vector a map draws: the one asked for (a search's or Find similar's)
 * when the table has it, else the table's own vector where it has one beside named ones, else
 * its first named one ("" for a table with a single, unnamed vector).
 */
export function chooseVector(t: VectorChoice, wanted: string | null | undefined): string {
  const has = (v: string) => (v === "" ? t.namedVectors.length === 0 || t.ownVector : t.namedVectors.includes(v));
  if (wanted !== null && wanted !== undefined && has(wanted)) return wanted;
  return t.ownVector || t.namedVectors.length === 0 ? "" : t.namedVectors[0];
}
