import type { Grid } from "../../api";
import { cellOf, type CellText, type Pending, UUID_COLUMN } from "./pendingModel";

/** One row as the grid shows it: read, added, or marked for deletion, with its pending cells. */
export interface DisplayRow {
  /** The pending model's key: the uuid for a stored row, "new:N" for an added one. */
  key: string;
  uuid: string;
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
  onEdit: (key: string, column: string, value: CellText, original: CellText) => void;
  onDelete: (rows: { key: string; uuid: string }[]) => void;
  onUndo: () => void;
  onCommit: () => void;
  /** onAdd adds an empty row (Alt+Insert); the grid then moves to its first editable cell. */
  onAdd: () => void;
  /** busy: a commit is running; the pending changes show but cannot change until it ends. */
  busy?: boolean;
}

/** displayRows is what the grid shows: added rows first (where they are seen), then the page. */
export function displayRows(grid: Grid, pending?: Pending): DisplayRow[] {
  const uuidCol = grid.columns.findIndex((c) => c.name === UUID_COLUMN);
  const added: DisplayRow[] = (pending?.inserts ?? []).map((r) => ({
    key: r.key,
    uuid: "",
    cells: grid.columns.map((c) => (c.name in r.values ? r.values[c.name] : null)),
    isNew: true,
    deleted: false,
    error: pending?.rowErrors[r.key] ?? "",
    read: null,
  }));
  const read = grid.rows.map((row, i) => {
    const uuid = uuidCol >= 0 ? (row[uuidCol] ?? "") : "";
    const key = uuid || `row:${grid.offset + i}`;
    return {
      key,
      uuid,
      cells: pending ? grid.columns.map((c, j) => cellOf(pending, key, c.name, row[j] ?? null).value) : row,
      isNew: false,
      deleted: pending ? key in pending.deletes : false,
      error: pending?.rowErrors[key] ?? "",
      read: row,
    };
  });
  return added.length > 0 ? [...added, ...read] : read;
}
