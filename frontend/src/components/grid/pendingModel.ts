// The grid's pending changes: cells edited in place, rows added, rows marked for deletion,
// collected until the user commits or discards them. Pure functions over an immutable value,
// so React state holds it and every step can be undone. Nothing here talks to the backend:
// toCommit builds the request, applyOutcomes folds the answer back in.
//
// Rows are held by ref, the grid's own name for a row: a stored row's is the keyId of its key
// (api/rowKey.ts), an added row's "new:N". A stored row's key is what an update or a delete
// names it by; an added row has none until the database stores it.
import type { CommitRequest, RowChange, RowKey, RowOutcome } from "../../api";
import { keyId } from "../../api/rowKey";

/** A cell's text, or null for NULL. */
export type CellText = string | null;

/** A row as the pending changes name it: its ref, and its key when it is stored (null: not stored, or keyless). */
export interface RowRef {
  ref: string;
  key: RowKey | null;
}

/** An existing row's edited cells. */
export interface RowEdit {
  /** The stored row's key, as read: what the update names. */
  key: RowKey;
  /** column -> the new text. */
  cells: Record<string, CellText>;
  /** column -> the text the cell had when it was first edited (to drop an edit typed back). */
  original: Record<string, CellText>;
}

/** A row added in the grid, not yet written; key cells typed in it are among its values. */
export interface NewRow {
  ref: string;
  values: Record<string, CellText>;
}

export interface Pending {
  /** row ref -> the stored row's edited cells. */
  edits: Record<string, RowEdit>;
  /** Added rows, oldest first. */
  inserts: NewRow[];
  /** row ref -> key of each row marked for deletion. */
  deletes: Record<string, RowKey>;
  /** row ref -> why its last commit did not apply it (the row stays pending). */
  rowErrors: Record<string, string>;
  /** row ref -> column -> why the typed value would be refused (checked as it is typed). */
  cellErrors: Record<string, Record<string, string>>;
  /** Earlier states, newest last, for undo. */
  undo: Pending[];
  /** The number of the next added row. */
  nextNew: number;
}

const UNDO_DEPTH = 200;

export const emptyPending: Pending = { edits: {}, inserts: [], deletes: {}, rowErrors: {}, cellErrors: {}, undo: [], nextNew: 1 };

/** isNewRow tells an added row's ref. */
export const isNewRow = (ref: string) => ref.startsWith("new:");

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

function withoutCellError(p: Pending, ref: string, column: string): Record<string, Record<string, string>> {
  const row = p.cellErrors[ref];
  if (!row || !(column in row)) return p.cellErrors;
  const rest = without(row, column);
  return Object.keys(rest).length === 0 ? without(p.cellErrors, ref) : { ...p.cellErrors, [ref]: rest };
}

/**
 * editCell sets one cell. For a stored row original is the cell's text as read; typing the
 * original back drops the edit. For an added row it sets the value. A stored row without a
 * key cannot be named by an update: nothing changes (the grid says why before it gets here).
 */
export function editCell(p: Pending, row: RowRef, column: string, value: CellText, original: CellText): Pending {
  const { ref } = row;
  if (!isNewRow(ref) && !p.edits[ref] && !row.key) return p;
  const base = { ...p, undo: remember(p), cellErrors: withoutCellError(p, ref, column), rowErrors: without(p.rowErrors, ref) };
  if (isNewRow(ref)) {
    return { ...base, inserts: p.inserts.map((r) => (r.ref === ref ? { ...r, values: { ...r.values, [column]: value } } : r)) };
  }
  const prev: RowEdit = p.edits[ref] ?? { key: row.key as RowKey, cells: {}, original: {} };
  const first = column in prev.original ? prev.original[column] : original;
  if (value === first) {
    const cells = without(prev.cells, column);
    const orig = without(prev.original, column);
    const edits = Object.keys(cells).length === 0 ? without(p.edits, ref) : { ...p.edits, [ref]: { ...prev, cells, original: orig } };
    return { ...base, edits };
  }
  return { ...base, edits: { ...p.edits, [ref]: { key: prev.key, cells: { ...prev.cells, [column]: value }, original: { ...prev.original, [column]: first } } } };
}

/** addRow adds an empty row and returns it with its ref. */
export function addRow(p: Pending): [Pending, string] {
  const ref = `new:${p.nextNew}`;
  return [{ ...p, undo: remember(p), inserts: [...p.inserts, { ref, values: {} }], nextNew: p.nextNew + 1 }, ref];
}

/**
 * deleteRows marks stored rows for deletion by their keys; an added row is simply dropped. A
 * row already marked stays marked; a stored row without a key cannot be named, so it is not
 * marked (the grid says why).
 */
export function deleteRows(p: Pending, rows: RowRef[]): Pending {
  const named = rows.filter((r) => isNewRow(r.ref) || r.key);
  if (named.length === 0) return p;
  const drop = new Set(named.filter((r) => isNewRow(r.ref)).map((r) => r.ref));
  const deletes = { ...p.deletes };
  let cellErrors = p.cellErrors;
  for (const r of named) {
    if (!isNewRow(r.ref) && r.key) deletes[r.ref] = r.key;
    cellErrors = without(cellErrors, r.ref);
  }
  return { ...p, undo: remember(p), deletes, cellErrors, inserts: p.inserts.filter((r) => !drop.has(r.ref)) };
}

/** pendingCells maps each row ref to its pending cells (edited cells, or an added row's values). */
function pendingCells(p: Pending): Map<string, Record<string, CellText>> {
  const m = new Map<string, Record<string, CellText>>();
  for (const [ref, e] of Object.entries(p.edits)) m.set(ref, e.cells);
  for (const r of p.inserts) m.set(r.ref, r.values);
  return m;
}

/** keyOfRef is the key a pending stored row is named by (null: an added row, or a row with nothing pending). */
export function keyOfRef(p: Pending, ref: string): RowKey | null {
  return p.edits[ref]?.key ?? p.deletes[ref] ?? null;
}

/** pendingValue is the text a cell holds in the pending changes (undefined: not pending). */
export function pendingValue(p: Pending, ref: string, column: string): CellText | undefined {
  const cells = pendingCells(p).get(ref);
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
  for (const [ref, cells] of pendingCells(prev)) {
    for (const [column, value] of Object.entries(cells)) {
      const cur = now.get(ref);
      if (!cur || !(column in cur) || cur[column] !== value) continue;
      const known = p.cellErrors[ref]?.[column];
      const row = { ...(cellErrors[ref] ?? {}) };
      if (known) row[column] = known;
      else delete row[column];
      cellErrors = Object.keys(row).length === 0 ? without(cellErrors, ref) : { ...cellErrors, [ref]: row };
    }
  }
  return { ...prev, cellErrors, undo: p.undo.slice(0, -1) };
}

/** setCellErrors records the check of one row's typed cells (column -> reason; {} clears). */
export function setCellErrors(p: Pending, ref: string, errors: Record<string, string>, checked: string[]): Pending {
  const row = { ...(p.cellErrors[ref] ?? {}) };
  for (const c of checked) delete row[c];
  Object.assign(row, errors);
  const cellErrors = Object.keys(row).length === 0 ? without(p.cellErrors, ref) : { ...p.cellErrors, [ref]: row };
  return { ...p, cellErrors };
}

/** changedRows is how many rows a commit would touch. */
export function changedRows(p: Pending): number {
  const edited = Object.keys(p.edits).filter((ref) => !(ref in p.deletes)).length;
  return edited + p.inserts.length + Object.keys(p.deletes).length;
}

/** badCells counts the typed values known to be refused; commit waits until there are none. */
export function badCells(p: Pending): number {
  return Object.values(p.cellErrors).reduce((n, row) => n + Object.keys(row).length, 0);
}

/** pick is the entries of rec for keys. */
function pick<T>(rec: Record<string, T>, keys: string[]): Record<string, T> {
  return Object.fromEntries(keys.filter((k) => k in rec).map((k) => [k, rec[k]]));
}

/**
 * toCommit is the commit request: PATCH only the edited cells of each edited row, by its key (a
 * row also marked for deletion is only deleted); POST each added row with its typed cells, the
 * key cells among them only when typed (trimmed: a blank one leaves the key to the database);
 * DELETE each marked row by its key. An update carries its edited cells as first read, so a
 * driver that can refuses to overwrite a row changed since (a conflict).
 */
export function toCommit(p: Pending, primaryKey: readonly string[]): CommitRequest {
  const updates: RowChange[] = Object.entries(p.edits)
    .filter(([ref]) => !(ref in p.deletes))
    .map(([ref, e]) => ({ ref, key: e.key, values: { ...e.cells }, original: pick(e.original, Object.keys(e.cells)) }));
  const inserts: RowChange[] = p.inserts.map((r) => ({ ref: r.ref, key: {}, values: typedKeyCells(r.values, primaryKey) }));
  const deletes: RowChange[] = Object.entries(p.deletes).map(([ref, key]) => ({ ref, key, values: {} }));
  return { updates, inserts, deletes };
}

/** typedKeyCells is an added row's values with its key cells trimmed, and left out when blank. */
function typedKeyCells(values: Record<string, CellText>, primaryKey: readonly string[]): Record<string, CellText> {
  const out: Record<string, CellText> = {};
  for (const [column, v] of Object.entries(values)) {
    if (!primaryKey.includes(column)) out[column] = v;
    else if (v !== null && v.trim() !== "") out[column] = v.trim();
  }
  return out;
}

/** typedSince is the cells whose text changed since the request sent them. */
function typedSince(cells: Record<string, CellText>, sent: Record<string, CellText>): Record<string, CellText> {
  return Object.fromEntries(Object.entries(cells).filter(([c, v]) => !(c in sent) || sent[c] !== v));
}

/**
 * applyOutcomes folds a commit's answer in: each applied row leaves the pending changes, as far
 * as it was sent (a cell whose text changed since the request was built stays pending); a row
 * that failed or was skipped stays, as typed, with its reason. An added row the database stored
 * becomes the stored row its outcome's key names: text typed in it since the request stays
 * pending as an edit of that row (its key cells, now read-only, excepted). Undo starts afresh:
 * what was written cannot be undone here.
 */
export function applyOutcomes(p: Pending, outcomes: RowOutcome[], sent: CommitRequest | undefined, primaryKey: readonly string[]): Pending {
  let { edits, deletes, rowErrors, cellErrors } = p;
  const applied = new Set<string>();
  const sentUpdate = new Map((sent?.updates ?? []).map((u) => [u.ref, u.values]));
  const sentInsert = new Map((sent?.inserts ?? []).map((u) => [u.ref, u.values]));
  for (const o of outcomes) {
    if (o.status !== "ok") {
      rowErrors = { ...rowErrors, [o.ref]: o.message || `not ${o.action === "delete" ? "deleted" : "written"} (${o.status})` };
      continue;
    }
    applied.add(o.ref);
    const was = sentUpdate.get(o.ref);
    const e = edits[o.ref];
    if (was && e) {
      const cells = typedSince(e.cells, was);
      const original = Object.fromEntries(Object.entries(e.original).filter(([c]) => c in cells));
      edits = Object.keys(cells).length === 0 ? without(edits, o.ref) : { ...edits, [o.ref]: { ...e, cells, original } };
    } else {
      edits = without(edits, o.ref);
    }
    const added = o.action === "insert" ? p.inserts.find((r) => r.ref === o.ref) : undefined;
    const stored = added && Object.keys(o.key ?? {}).length > 0 ? o.key : null;
    const sentValues = sentInsert.get(o.ref);
    if (added && stored && sentValues) {
      const cells = Object.fromEntries(Object.entries(typedSince(added.values, sentValues)).filter(([c]) => !primaryKey.includes(c)));
      // What is known of those cells' text (a check that answered) goes with them.
      const errors = Object.fromEntries(Object.entries(cellErrors[o.ref] ?? {}).filter(([c]) => c in cells));
      cellErrors = without(cellErrors, o.ref);
      if (Object.keys(cells).length > 0) {
        const ref = keyId(stored, primaryKey);
        const original = Object.fromEntries(Object.keys(cells).map((c) => [c, sentValues[c] ?? null]));
        edits = { ...edits, [ref]: { key: stored, cells, original } };
        if (Object.keys(errors).length > 0) cellErrors = { ...cellErrors, [ref]: errors };
      }
    }
    deletes = without(deletes, o.ref);
    rowErrors = without(rowErrors, o.ref);
  }
  return { ...p, edits, deletes, rowErrors, cellErrors, inserts: p.inserts.filter((r) => !applied.has(r.ref)), undo: [] };
}

/** changedCells lists the pending cells whose text differs between two states (to check them again after an undo). */
export function changedCells(before: Pending, after: Pending): { ref: string; column: string; value: CellText }[] {
  const out: { ref: string; column: string; value: CellText }[] = [];
  const a = pendingCells(before);
  for (const [ref, cells] of pendingCells(after)) {
    const was = a.get(ref) ?? {};
    for (const [column, value] of Object.entries(cells)) if (!(column in was) || was[column] !== value) out.push({ ref, column, value });
  }
  return out;
}

/** cellOf is what a cell shows: its pending text when edited, else the text read. */
export function cellOf(p: Pending, ref: string, column: string, read: CellText): { value: CellText; edited: boolean } {
  const e = p.edits[ref];
  if (e && column in e.cells) return { value: e.cells[column], edited: true };
  return { value: read, edited: false };
}
