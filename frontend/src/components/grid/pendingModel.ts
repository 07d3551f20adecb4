// The grid's pending changes: cells edited in place, rows added, rows marked for deletion,
// collected until the user commits or discards them. Pure functions over an immutable value,
// so React state holds it and every step can be undone. Nothing here talks to the backend:
// toCommit builds the request, applyOutcomes folds the answer back in.
import type { CommitRequest, RowChange, RowOutcome } from "../../api";

/** A cell's text, or null for NULL. */
export type CellText = string | null;

/** The key column; a new row may carry a typed uuid, an existing row's is read-only. */
export const UUID_COLUMN = "uuid";

/** An existing row's edited cells. */
export interface RowEdit {
  uuid: string;
  /** column -> the new text. */
  cells: Record<string, CellText>;
  /** column -> the text the cell had when it was first edited (to drop an edit typed back). */
  original: Record<string, CellText>;
}

/** A row added in the grid, not yet written. */
export interface NewRow {
  key: string;
  values: Record<string, CellText>;
}

export interface Pending {
  /** row key -> the row's edited cells. An existing row's key is its uuid. */
  edits: Record<string, RowEdit>;
  /** Added rows, oldest first. */
  inserts: NewRow[];
  /** row key -> uuid of each row marked for deletion. */
  deletes: Record<string, string>;
  /** row key -> why its last commit did not apply it (the row stays pending). */
  rowErrors: Record<string, string>;
  /** row key -> column -> why the typed value would be refused (checked as it is typed). */
  cellErrors: Record<string, Record<string, string>>;
  /** Earlier states, newest last, for undo. */
  undo: Pending[];
  /** The number of the next added row. */
  nextNew: number;
}

const UNDO_DEPTH = 200;

export const emptyPending: Pending = { edits: {}, inserts: [], deletes: {}, rowErrors: {}, cellErrors: {}, undo: [], nextNew: 1 };

/** isNewRow tells an added row's key. */
export const isNewRow = (key: string) => key.startsWith("new:");

function remember(p: Pending): Pending[] {
  const { undo, ...rest } = p;
  const snapshot: Pending = { ...rest, undo: [] };
  return [...undo.slice(-(UNDO_DEPTH - 1)), snapshot];
}

function without<T>(rec: Record<string, T>, key: string): Record<string, T> {
  if (!(key in rec)) return rec;
  const { [key]: _, ...rest } = rec;
  return rest;
}

function withoutCellError(p: Pending, key: string, column: string): Record<string, Record<string, string>> {
  const row = p.cellErrors[key];
  if (!row || !(column in row)) return p.cellErrors;
  const rest = without(row, column);
  return Object.keys(rest).length === 0 ? without(p.cellErrors, key) : { ...p.cellErrors, [key]: rest };
}

/**
 * editCell sets one cell. For an existing row (key = its uuid) original is the cell's text
 * as read; typing the original back drops the edit. For an added row it sets the value.
 */
export function editCell(p: Pending, key: string, column: string, value: CellText, original: CellText): Pending {
  const base = { ...p, undo: remember(p), cellErrors: withoutCellError(p, key, column), rowErrors: without(p.rowErrors, key) };
  if (isNewRow(key)) {
    return { ...base, inserts: p.inserts.map((r) => (r.key === key ? { ...r, values: { ...r.values, [column]: value } } : r)) };
  }
  const prev = p.edits[key] ?? { uuid: key.startsWith("row:") ? "" : key, cells: {}, original: {} };
  const first = column in prev.original ? prev.original[column] : original;
  if (value === first) {
    const cells = without(prev.cells, column);
    const orig = without(prev.original, column);
    const edits = Object.keys(cells).length === 0 ? without(p.edits, key) : { ...p.edits, [key]: { ...prev, cells, original: orig } };
    return { ...base, edits };
  }
  return { ...base, edits: { ...p.edits, [key]: { uuid: prev.uuid, cells: { ...prev.cells, [column]: value }, original: { ...prev.original, [column]: first } } } };
}

/** addRow adds an empty row and returns it with its key. */
export function addRow(p: Pending): [Pending, string] {
  const key = `new:${p.nextNew}`;
  return [{ ...p, undo: remember(p), inserts: [...p.inserts, { key, values: {} }], nextNew: p.nextNew + 1 }, key];
}

/**
 * deleteRows marks rows for deletion (key -> uuid); an added row is simply dropped. A row
 * already marked stays marked.
 */
export function deleteRows(p: Pending, rows: { key: string; uuid: string }[]): Pending {
  if (rows.length === 0) return p;
  const drop = new Set(rows.filter((r) => isNewRow(r.key)).map((r) => r.key));
  const deletes = { ...p.deletes };
  let cellErrors = p.cellErrors;
  for (const r of rows) {
    if (!isNewRow(r.key)) deletes[r.key] = r.uuid;
    cellErrors = without(cellErrors, r.key);
  }
  return { ...p, undo: remember(p), deletes, cellErrors, inserts: p.inserts.filter((r) => !drop.has(r.key)) };
}

/** pendingCells maps each row key to its pending cells (edited cells, or an added row's values). */
function pendingCells(p: Pending): Map<string, Record<string, CellText>> {
  const m = new Map<string, Record<string, CellText>>();
  for (const [k, e] of Object.entries(p.edits)) m.set(k, e.cells);
  for (const r of p.inserts) m.set(r.key, r.values);
  return m;
}

/** pendingValue is the text a cell holds in the pending changes (undefined: not pending). */
export function pendingValue(p: Pending, key: string, column: string): CellText | undefined {
  const cells = pendingCells(p).get(key);
  return cells && column in cells ? cells[column] : undefined;
}

/**
 * undo steps back one change (an edit, an added row, a deletion mark). What is known now
 * about a cell's text (a check that answered after the earlier state was remembered) holds
 * for the same text after the undo.
 */
export function undo(p: Pending): Pending {
  if (p.undo.length === 0) return p;
  const prev = p.undo[p.undo.length - 1];
  const now = pendingCells(p);
  let cellErrors = prev.cellErrors;
  for (const [key, cells] of pendingCells(prev)) {
    for (const [column, value] of Object.entries(cells)) {
      const cur = now.get(key);
      if (!cur || !(column in cur) || cur[column] !== value) continue;
      const known = p.cellErrors[key]?.[column];
      const row = { ...(cellErrors[key] ?? {}) };
      if (known) row[column] = known;
      else delete row[column];
      cellErrors = Object.keys(row).length === 0 ? without(cellErrors, key) : { ...cellErrors, [key]: row };
    }
  }
  return { ...prev, cellErrors, undo: p.undo.slice(0, -1) };
}

/** setCellErrors records the check of one row's typed cells (column -> reason; {} clears). */
export function setCellErrors(p: Pending, key: string, errors: Record<string, string>, checked: string[]): Pending {
  const row = { ...(p.cellErrors[key] ?? {}) };
  for (const c of checked) delete row[c];
  Object.assign(row, errors);
  const cellErrors = Object.keys(row).length === 0 ? without(p.cellErrors, key) : { ...p.cellErrors, [key]: row };
  return { ...p, cellErrors };
}

/** changedRows is how many rows a commit would touch. */
export function changedRows(p: Pending): number {
  const edited = Object.keys(p.edits).filter((k) => !(k in p.deletes)).length;
  return edited + p.inserts.length + Object.keys(p.deletes).length;
}

/** badCells counts the typed values known to be refused; commit waits until there are none. */
export function badCells(p: Pending): number {
  return Object.values(p.cellErrors).reduce((n, row) => n + Object.keys(row).length, 0);
}

/**
 * toCommit is the commit request: PATCH only the edited cells of each edited row (a row also
 * marked for deletion is only deleted), POST each added row with a uuid only when one was
 * typed, DELETE each marked row.
 */
export function toCommit(p: Pending): CommitRequest {
  const updates: RowChange[] = Object.entries(p.edits)
    .filter(([key]) => !(key in p.deletes))
    .map(([key, e]) => ({ key, uuid: e.uuid, values: { ...e.cells } }));
  const inserts: RowChange[] = p.inserts.map((r) => {
    const { [UUID_COLUMN]: typed, ...values } = r.values;
    return { key: r.key, uuid: (typed ?? "").trim(), values };
  });
  const deletes: RowChange[] = Object.entries(p.deletes).map(([key, uuid]) => ({ key, uuid, values: {} }));
  return { updates, inserts, deletes };
}

/**
 * applyOutcomes folds a commit's answer in: each applied row leaves the pending changes, as far
 * as it was sent (a cell whose text changed since the request was built stays pending); a row
 * that failed or was skipped stays, as typed, with its reason. Undo starts afresh: what was
 * written cannot be undone here.
 */
export function applyOutcomes(p: Pending, outcomes: RowOutcome[], sent?: CommitRequest): Pending {
  let { edits, deletes, rowErrors } = p;
  const applied = new Set<string>();
  const sentUpdate = new Map((sent?.updates ?? []).map((u) => [u.key, u.values]));
  for (const o of outcomes) {
    if (o.status === "ok") {
      applied.add(o.key);
      const was = sentUpdate.get(o.key);
      const e = edits[o.key];
      if (was && e) {
        const cells = Object.fromEntries(Object.entries(e.cells).filter(([c, v]) => !(c in was) || was[c] !== v));
        const original = Object.fromEntries(Object.entries(e.original).filter(([c]) => c in cells));
        edits = Object.keys(cells).length === 0 ? without(edits, o.key) : { ...edits, [o.key]: { ...e, cells, original } };
      } else {
        edits = without(edits, o.key);
      }
      deletes = without(deletes, o.key);
      rowErrors = without(rowErrors, o.key);
    } else {
      rowErrors = { ...rowErrors, [o.key]: o.message || `not ${o.action === "delete" ? "deleted" : "written"} (${o.status})` };
    }
  }
  return { ...p, edits, deletes, rowErrors, inserts: p.inserts.filter((r) => !applied.has(r.key)), undo: [] };
}

/** changedCells lists the pending cells whose text differs between two states (to check them again after an undo). */
export function changedCells(before: Pending, after: Pending): { key: string; column: string; value: CellText }[] {
  const out: { key: string; column: string; value: CellText }[] = [];
  const a = pendingCells(before);
  for (const [key, cells] of pendingCells(after)) {
    const was = a.get(key) ?? {};
    for (const [column, value] of Object.entries(cells)) if (!(column in was) || was[column] !== value) out.push({ key, column, value });
  }
  return out;
}

/** cellOf is what a cell shows: its pending text when edited, else the text read. */
export function cellOf(p: Pending, key: string, column: string, read: CellText): { value: CellText; edited: boolean } {
  const e = p.edits[key];
  if (e && column in e.cells) return { value: e.cells[column], edited: true };
  return { value: read, edited: false };
}
