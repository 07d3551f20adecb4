import type { Grid, RowKey } from "../../api";
import { keyId, keyOfCells } from "../../api/rowKey";
import { cellOf, type CellText, type Pending, type RowRef } from "./pendingModel";

/** One row as the grid shows it: read, added, or marked for deletion, with its pending cells. */
export interface DisplayRow {
  /** The grid's own name for the row: its key's keyId when stored and keyed, "new:N" when added, "row:N" (its place) otherwise. */
  ref: string;
  /** The stored row's key; null for an added row, and for a row that cannot be named (no key, or a key cell not read). */
  key: RowKey | null;
  cells: CellText[];
  isNew: boolean;
  deleted: boolean;
  /** Why the row's last commit did not apply it. */
  error: string;
  /** The cells as read from the database (null for an added row): what an edit is compared with. */
  read: CellText[] | null;
}

/** The grid's editing, when its rows can be edited (a table tab; not an editor result). */
export interface GridEditing {
  pending: Pending;
  /** The table's key columns: a stored row is updated and deleted by their cells. */
  primaryKey: string[];
  onEdit: (row: RowRef, column: string, value: CellText, original: CellText) => void;
  onDelete: (rows: RowRef[]) => void;
  onUndo: () => void;
  onCommit: () => void;
  /** onAdd adds an empty row (Alt+Insert); the grid then moves to its first editable cell. */
  onAdd: () => void;
  /** busy: a commit is running; the pending changes show but cannot change until it ends. */
  busy?: boolean;
}

/**
 * unnamedRow says why a stored row cannot be updated, deleted or searched near, or "" when it
 * can (an added row is named once stored): the table has no key, or the row's key was not read.
 */
export function unnamedRow(row: Pick<DisplayRow, "isNew" | "key">, primaryKey: readonly string[]): string {
  if (row.isNew || row.key) return "";
  if (primaryKey.length === 0) return "The table has no primary key: its rows cannot be named one by one, so they cannot be changed, deleted or searched near (Find similar)";
  return `The row's key (${primaryKey.join(", ")}) was not read: it cannot be changed, deleted or searched near (Find similar)`;
}

/**
 * displayRows is what the grid shows: added rows first (where they are seen), then the page. A
 * stored row is named by its key over primaryKey (none: a read-only grid, rows by place).
 */
export function displayRows(grid: Grid, primaryKey: readonly string[], pending?: Pending): DisplayRow[] {
  const names = grid.columns.map((c) => c.name);
  const added: DisplayRow[] = (pending?.inserts ?? []).map((r) => ({
    ref: r.ref,
    key: null,
    cells: grid.columns.map((c) => (c.name in r.values ? r.values[c.name] : null)),
    isNew: true,
    deleted: false,
    error: pending?.rowErrors[r.ref] ?? "",
    read: null,
  }));
  const read = grid.rows.map((row, i) => {
    const key = keyOfCells(names, row, primaryKey);
    const ref = key ? keyId(key, primaryKey) : `row:${grid.offset + i}`;
    return {
      ref,
      key,
      cells: pending ? grid.columns.map((c, j) => cellOf(pending, ref, c.name, row[j] ?? null).value) : row,
      isNew: false,
      deleted: pending ? ref in pending.deletes : false,
      error: pending?.rowErrors[ref] ?? "",
      read: row,
    };
  });
  return added.length > 0 ? [...added, ...read] : read;
}
