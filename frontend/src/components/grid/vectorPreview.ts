// A grid page carries vector previews, not vectors (app/explorer_vectors.go): each vector's
// length and first numbers. The full value is read by the row's key when the user expands,
// copies or inspects it. These helpers read the preview cells.
import type { Column } from "../../api";
import type { CellText } from "./pendingModel";


/** One vector's preview, as the backend sends it. */
export interface VectorPreview {
  dimensions: number;
  head: number[];
  /** How many vectors a multi-vector holds (absent for a single vector). */
  multi?: number;
}

const isPreview = (x: unknown): x is VectorPreview =>
  typeof x === "object" && x !== null && typeof (x as VectorPreview).dimensions === "number" && Array.isArray((x as VectorPreview).head);

/** previews reads a preview cell: one preview ("" as its name), or one per named vector. */
export function previews(text: string): [string, VectorPreview][] {
  try {
    const p: unknown = JSON.parse(text);
    if (isPreview(p)) return [["", p]];
    if (typeof p === "object" && p !== null) return Object.entries(p as Record<string, unknown>).filter((e): e is [string, VectorPreview] => isPreview(e[1]));
  } catch {
    /* not a preview */
  }
  return [];
}

const count = (n: number) => n.toLocaleString("en-US");

/** previewText is how a cell shows a preview: "[0.1, 0.2, 0.3, 0.4, …] (1,536 values)". */
export function previewText(p: VectorPreview): string {
  const more = p.dimensions > p.head.length ? ", …" : "";
  return `[${p.head.join(", ")}${more}] (${count(p.dimensions)} values${p.multi ? ` × ${count(p.multi)} vectors` : ""})`;
}

/** previewCell shows a preview cell: the named vector chosen (or the only one). */
export function previewCell(text: string, vectorName?: string): string {
  const all = previews(text);
  const one = vectorName ? all.find(([n]) => n === vectorName) : all[0];
  if (!one) return vectorName && all.length > 0 ? `no ${vectorName}` : text;
  return previewText(one[1]);
}

/** previewDimensions says a preview cell's sizes: "1,536 dimensions", or one per name. */
export function previewDimensions(text: string): string {
  return previews(text)
    .map(([name, p]) => `${name ? `${name}: ` : ""}${count(p.dimensions)} dimensions${p.multi ? ` × ${count(p.multi)} vectors` : ""}`)
    .join(" · ");
}

/** withFullVectors puts the full vectors (full[i]: row i's vector cell as text) into rows' preview cells; a row without one gets null. */
export function withFullVectors(columns: Column[], rows: CellText[][], full: readonly (string | null | undefined)[]): CellText[][] {
  const at = columns.map((c, j) => (c.preview ? j : -1)).filter((j) => j >= 0);
  return rows.map((row, i) => {
    if (at.length === 0) return row;
    const cells = [...row];
    for (const j of at) cells[j] = cells[j] === null ? null : (full[i] ?? null);
    return cells;
  });
}
