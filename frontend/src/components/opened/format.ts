import type { Table, TableCount } from "../../api";

/**
 * sortTables orders tables as the sidebar lists them: those in no group first, then each group
 * in its name's order, and within each by the name shown (the label where a group has one),
 * case-insensitively.
 */
export function sortTables(tables: Table[]): Table[] {
  const by = (a: string, b: string) => a.localeCompare(b, "en", { sensitivity: "base" }) || a.localeCompare(b);
  return [...tables].sort((a, b) => (a.group === b.group ? 0 : !a.group ? -1 : !b.group ? 1 : by(a.group, b.group)) || by(a.label || a.name, b.label || b.name));
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
