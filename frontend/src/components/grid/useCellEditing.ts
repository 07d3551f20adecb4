import { useEffect, useRef, useState, type RefObject } from "react";
import type { Column } from "../../api";
import { unnamedRow, type DisplayRow, type GridEditing } from "./displayRows";
import { isNewRow, type CellText } from "./pendingModel";

/** Text columns keep an emptied cell as empty text; other types take it as NULL. */
const emptyIsNull = (c: Column) => c.kind !== "text";

/** The cell being edited: typed means the draft was changed (or the edit began with a typed key). */
interface Editing {
  ref: string;
  col: number;
  draft: string;
  initial: CellText;
  typed: boolean;
}

interface Options {
  rows: DisplayRow[];
  indexOf: Map<string, number>;
  columns: Column[];
  edit?: GridEditing;
  scrollRef: RefObject<HTMLDivElement | null>;
  /** say tells the grid's status line why a cell cannot be edited. */
  say: (text: string) => void;
}

/**
 * useCellEditing is the grid's cell editor: which cell is open, its draft, and how the edit
 * ends. The cell is held by row ref, so a typed value reaches the row it was typed in even if
 * rows moved meanwhile; an edited value goes to the pending changes (edit.onEdit).
 */
export function useCellEditing({ rows, indexOf, columns, edit, scrollRef, say }: Options) {
  const [editing, setEditing] = useState<Editing | null>(null);
  // The edit being finished is cleared here first, so the blur that moving the focus causes
  // finds nothing left to finish (an edit is recorded once; Escape records nothing).
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const editingRow = editing ? (indexOf.get(editing.ref) ?? -1) : -1;

  // An edit whose row left (another page, a discarded new row) is dropped.
  useEffect(() => {
    setEditing((e) => (e && !rows.some((r) => r.ref === e.ref) ? null : e));
  }, [rows]);

  /** Whether a cell can be edited, and if not, why. */
  const editBlock = (row: DisplayRow, c: Column): string => {
    if (!edit) return "This grid is read-only";
    if (edit.busy) return "A commit is running: wait for it to finish";
    if (row.deleted) return "The row is marked for deletion: undo to edit it";
    // A new row may type its key; a stored row's key names it, so it stays as read.
    if (c.primaryKey && row.isNew) return "";
    if (c.readOnly) return `${c.name} is read-only`;
    if (c.primaryKey) return `${c.name} is part of the row's key: it cannot be changed`;
    return unnamedRow(row, edit.primaryKey);
  };

  /** start opens a cell's editor; draft is the key typed that opened it, if one did. */
  const start = (r: number, col: number, draft?: string) => {
    const row = rows[r];
    const c = columns[col];
    if (!row || !c) return;
    const why = editBlock(row, c);
    if (why) {
      say(why);
      return;
    }
    say("");
    const initial = row.cells[col] ?? null;
    setEditing({ ref: row.ref, col, draft: draft ?? initial ?? "", initial, typed: draft !== undefined });
  };

  /**
   * finish ends the edit; keep records it when the text changed. It reports whether it did.
   * The grid takes the keyboard back unless focus is leaving for something outside it (a
   * filter's input clicked mid-edit keeps its focus, and what is typed there stays there).
   */
  const finish = (keep: boolean, leavingFor: EventTarget | null = null): boolean => {
    const cur = editingRef.current;
    if (!cur) return false;
    editingRef.current = null;
    setEditing(null);
    const outside = leavingFor instanceof Node && !scrollRef.current?.contains(leavingFor);
    if (!outside) scrollRef.current?.focus({ preventScroll: true });
    if (!keep || !edit || edit.busy) return false;
    const at = indexOf.get(cur.ref);
    const row = at === undefined ? undefined : rows[at];
    const c = columns[cur.col];
    if (!row || !c) return false;
    // Text left as it was opened is no edit: a NULL cell opened and closed stays NULL. Typing
    // into a NULL text cell and erasing it again is how empty text is written.
    if (cur.draft === (cur.initial ?? "") && !(cur.initial === null && cur.typed && !emptyIsNull(c))) return false;
    const value: CellText = cur.draft === "" && emptyIsNull(c) ? null : cur.draft;
    if (value === row.cells[cur.col]) return false;
    edit.onEdit(row, c.name, value, isNewRow(row.ref) ? null : (row.read?.[cur.col] ?? null));
    return true;
  };

  const setDraft = (text: string) => setEditing((e) => (e ? { ...e, draft: text, typed: true } : e));

  return { editing, editingRow, editBlock, start, finish, setDraft };
}

export type CellEditing = ReturnType<typeof useCellEditing>;
