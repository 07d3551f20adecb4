import type { Table, TableCount } from "../../api";

/** sortTables orders tables by name, case-insensitively, as the sidebar lists them. */
export function sortTables(tables: Table[]): Table[] {
  return [...tables].sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.name.localeCompare(b.name));
}

/** countsByName indexes row counts by table name. */
export function countsByName(counts: TableCount[]): Record<string, TableCount> {
  const out: Record<string, TableCount> = {};
  for (const c of counts) out[c.name] = c;
  return out;
}

/** formatCount renders a row count with thousands separators ("10,050"). */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** rowRange is the "Rows 1–100" label of a page; "of about N" when the total is the database's estimate. */
export function rowRange(offset: number, rows: number, total?: number | null, estimated = false): string {
  const of = total !== undefined && total !== null ? ` of ${estimated ? "about " : ""}${formatCount(total)}` : "";
  if (rows === 0 && total === 0) return "No rows";
  if (rows === 0) return `No rows${offset > 0 ? ` from row ${formatCount(offset + 1)}` : ""}${of}`;
  return `Rows ${formatCount(offset + 1)}–${formatCount(offset + rows)}${of}`;
}
