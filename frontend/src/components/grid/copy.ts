// What the grid puts on the clipboard: cells or rows as TSV (for a spreadsheet) or rows as
// JSON (for code), from the text the grid shows.
import type { Column } from "../../api";
import type { CellText } from "./pendingModel";
import { isVector } from "./columnKinds";

/**
 * A TSV field as spreadsheets paste it: quoted (quotes doubled) only when it holds a tab or a
 * line break, or starts with a quote; NULL is empty.
 */
function tsvField(v: CellText): string {
  if (v === null) return "";
  return /[\t\n\r]/.test(v) || v.startsWith('"') ? `"${v.replace(/"/g, '""')}"` : v;
}

/** toTSV is rows of cells as tab-separated lines, with the column names first when header is set. */
export function toTSV(columns: Column[], rows: CellText[][], header: boolean): string {
  const lines = rows.map((r) => r.map(tsvField).join("\t"));
  if (header) lines.unshift(columns.map((c) => tsvField(c.name)).join("\t"));
  return lines.join("\n");
}

const INTEGER = /^-?\d+$/;

/**
 * jsonValue types one cell for JSON: numbers as numbers (an integer beyond 2^53 stays text,
 * so no digit is lost), booleans as booleans, arrays, objects and vectors parsed, NULL as null.
 */
export function jsonValue(c: Column, v: CellText): unknown {
  if (v === null) return null;
  const base = c.type.replace(/\[\]$/, "");
  if (c.json || c.kind === "array" || isVector(c)) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  if (base === "int" && INTEGER.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : v;
  }
  if (base === "number" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  if (base === "boolean" && (v === "true" || v === "false")) return v === "true";
  return v;
}

const rowObject = (columns: Column[], r: CellText[]) => Object.fromEntries(columns.map((c, j) => [c.name, jsonValue(c, r[j] ?? null)]));

/** toJSON is rows as a JSON array of objects, one member per column, two-space indented. */
export function toJSON(columns: Column[], rows: CellText[][]): string {
  return JSON.stringify(
    rows.map((r) => rowObject(columns, r)),
    null,
    2,
  );
}

/** rowJSON is one row as a JSON object, two-space indented. */
export function rowJSON(columns: Column[], row: CellText[]): string {
  return JSON.stringify(rowObject(columns, row), null, 2);
}
