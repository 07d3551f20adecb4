// The one place for the rules of a row's key (RowKey): a table names its stored rows by the
// cells of its key columns (TableInfo.primaryKey, in the key's order: one column, as a
// Weaviate uuid, or several). Everything that names a stored row (pending edits, Find similar,
// the map, the search panel, vector reads) reads, compares and shows keys through these
// helpers; they mirror backend/driver/key.go (KeyOf, Key.Text, KeyValueText, KeyFilters,
// SameKey), so the window and the backend agree on which row a key names.
import type { Filter, Grid, RowKey } from "./types";

/**
 * keyValueText is one key value as text, as a filter on its column takes it and as a person
 * reads it: text as it is, a number by its digits, a boolean as true/false (driver.KeyValueText).
 */
export function keyValueText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  return JSON.stringify(v);
}

/** hasValue: a key cell that names something (not missing, not null, not blank text). */
function hasValue(v: unknown): boolean {
  return v !== null && v !== undefined && !(typeof v === "string" && v.trim() === "");
}

/**
 * keyOf is the key of a row given by column: its key columns' cells, in the key's order. It is
 * null when the table has no key, or when a key column is missing or null in the row (an editor
 * result without the key selected, a row not yet stored): such a row cannot be named.
 */
export function keyOf(row: Record<string, unknown>, primaryKey: readonly string[]): RowKey | null {
  if (primaryKey.length === 0) return null;
  const key: RowKey = {};
  for (const c of primaryKey) {
    const v = row[c];
    if (v === null || v === undefined) return null;
    key[c] = v;
  }
  return key;
}

/** keyOfCells is keyOf for cells in the order of columns (a grid's row; a map's keys by its keyColumns). */
export function keyOfCells(columns: readonly string[], cells: readonly unknown[], primaryKey: readonly string[]): RowKey | null {
  const row: Record<string, unknown> = {};
  columns.forEach((c, j) => {
    if (primaryKey.includes(c)) row[c] = cells[j];
  });
  return keyOf(row, primaryKey);
}

/** gridKeys are the keys of a grid's rows (a search's or Find similar's matches), those that have one, in order. */
export function gridKeys(grid: Pick<Grid, "columns" | "rows">, primaryKey: readonly string[]): RowKey[] {
  const names = grid.columns.map((c) => c.name);
  return grid.rows.map((r) => keyOfCells(names, r, primaryKey)).filter((k): k is RowKey => k !== null);
}

/**
 * keyId is a key's identity, for Maps, Sets, React keys and tab keys: the values as text in the
 * key's order, as JSON. The same key gives the same id whatever the object's order, and a map's
 * number 42 and a grid's text "42" are one row (driver.SameKey compares as text too). It never
 * looks like the grid's own names of rows not stored ("new:1", "row:3").
 */
export function keyId(key: RowKey, primaryKey: readonly string[]): string {
  return JSON.stringify(primaryKey.map((c) => keyValueText(key[c])));
}

/**
 * keyText is the key for a person: the value alone for a one-column key (a Weaviate row reads
 * as its uuid), else `col=value, col2=value2` in the key's order (driver.Key.Text). Without the
 * key's columns it takes the key's own, by name.
 */
export function keyText(key: RowKey, primaryKey: readonly string[] = []): string {
  const names = primaryKey.length > 0 ? primaryKey : Object.keys(key).sort();
  if (names.length === 1) return keyValueText(key[names[0]]);
  return names
    .filter((c) => c in key)
    .map((c) => `${c}=${keyValueText(key[c])}`)
    .join(", ");
}

/** missingKeyColumns lists the key columns a (typed) key gives no value for, in the key's order. */
export function missingKeyColumns(key: RowKey, primaryKey: readonly string[]): string[] {
  return primaryKey.filter((c) => !hasValue(key[c]));
}

/**
 * typedKey is a key as typed in a form, as it is sent: the key columns only, text trimmed (a
 * pasted uuid's spaces), blank ones left out; {} when none is given (no row named).
 */
export function typedKey(key: RowKey, primaryKey: readonly string[]): RowKey {
  const out: RowKey = {};
  for (const c of primaryKey) {
    const v = key[c];
    if (!hasValue(v)) continue;
    out[c] = typeof v === "string" ? v.trim() : v;
  }
  return out;
}

/** listItem is one value of an `in` list, quoted when a comma, a quote or spaces at its ends would split or change it (filterModel's splitList reads it back). */
function listItem(text: string): string {
  return /[,"]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** keyFilters are the filters that choose the one row key names: one equality per key column (driver.KeyFilters). */
export function keyFilters(key: RowKey, primaryKey: readonly string[]): Filter[] {
  return primaryKey.map((c) => ({ column: c, operator: "equals", value: keyValueText(key[c]), value2: "" }));
}

/**
 * keysFilters are the filters that choose these rows (a map's selection opened as a grid): one
 * `in` list per key column of its values. For a one-column key they choose exactly these rows;
 * for several, every row whose cells are among them, which is exactly these rows when at most
 * one key column varies among them (a tenant and its ids) and may be more otherwise: the
 * filters AND their lists, and cannot say "this pair or that pair".
 */
export function keysFilters(keys: readonly RowKey[], primaryKey: readonly string[]): Filter[] {
  return primaryKey.map((c) => {
    const values = [...new Set(keys.map((k) => keyValueText(k[c])))];
    return { column: c, operator: "in", value: values.map(listItem).join(", "), value2: "" };
  });
}
