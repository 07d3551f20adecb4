import { useCallback, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError } from "../../api";
import {
  addRow as addRowTo,
  applyOutcomes,
  badCells,
  changedCells,
  changedRows,
  deleteRows,
  editCell,
  emptyPending,
  pendingValue,
  setCellErrors,
  toCommit,
  undo as undoIn,
  type CellText,
  type Pending,
  type RowRef,
} from "./pendingModel";

/** What the last commit did, in words, or why it could not run. */
export type CommitState =
  | { status: "idle" }
  | { status: "committing"; rows: number }
  | { status: "done"; applied: number; failed: number }
  | { status: "declined" }
  | { status: "error"; error: ApiError };

/**
 * usePendingEdits holds one table's pending changes and talks to the backend for them: each
 * typed cell is checked against the schema at once (checkCells, nothing sent), and commit
 * writes them all, keeping the rows that failed pending with their reasons. A commit that
 * cannot run at all (the connection dropped) changes nothing: every typed value stays.
 * Stored rows are updated and deleted by their cells of primaryKey, the table's key columns.
 * onApplied runs after a commit that wrote something, to read the page again.
 */
export function usePendingEdits(connectionId: string, table: string, primaryKey: string[], onApplied: () => void) {
  const api = useApi();
  const [pending, setPending] = useState<Pending>(emptyPending);
  const [commit, setCommit] = useState<CommitState>({ status: "idle" });
  const pendingRef = useRef(pending);
  pendingRef.current = pending;

  /** check types one typed cell against the schema (nothing sent); a stale answer is dropped. */
  const check = useCallback(
    (ref: string, column: string, value: CellText) => {
      api.explorer.checkCells(connectionId, table, { [column]: value }).then(
        (errors) => setPending((p) => (pendingValue(p, ref, column) === value ? setCellErrors(p, ref, errors, [column]) : p)),
        (reason) => {
          // The check could not run (the connection dropped): the commit checks again.
          const e = parseApiError(reason);
          setPending((p) => (pendingValue(p, ref, column) === value ? setCellErrors(p, ref, {}, [column]) : p));
          setCommit((c) => (c.status === "committing" ? c : { status: "error", error: e }));
        },
      );
    },
    [api, connectionId, table],
  );

  const edit = useCallback(
    (row: RowRef, column: string, value: CellText, original: CellText) => {
      setPending((p) => editCell(p, row, column, value, original));
      setCommit((c) => (c.status === "committing" ? c : { status: "idle" }));
      check(row.ref, column, value);
    },
    [check],
  );

  const addRow = useCallback(() => {
    let ref = "";
    setPending((p) => {
      const [next, r] = addRowTo(p);
      ref = r;
      return next;
    });
    return ref;
  }, []);

  const remove = useCallback((rows: RowRef[]) => setPending((p) => deleteRows(p, rows)), []);
  // An undo brings back earlier text: check it again, as its check may have answered after
  // the state it returns to was remembered.
  const undo = useCallback(() => {
    const before = pendingRef.current;
    const after = undoIn(before);
    pendingRef.current = after;
    setPending(after);
    for (const c of changedCells(before, after)) if (c.value !== null) check(c.ref, c.column, c.value);
  }, [check]);
  const discard = useCallback(() => {
    setPending(emptyPending);
    setCommit({ status: "idle" });
  }, []);

  // The last commit's outcome stays on screen until the next change, or until dismissed.
  const dismiss = useCallback(() => setCommit((c) => (c.status === "committing" ? c : { status: "idle" })), []);

  const run = useCallback(async () => {
    const p = pendingRef.current;
    const rows = changedRows(p);
    if (rows === 0 || badCells(p) > 0) return;
    setCommit({ status: "committing", rows });
    try {
      const req = toCommit(p, primaryKey);
      const res = await api.explorer.commit(connectionId, table, req);
      if (res.declined) {
        setCommit({ status: "declined" });
        return;
      }
      setPending((cur) => applyOutcomes(cur, res.outcomes, req, primaryKey));
      const applied = res.outcomes.filter((o) => o.status === "ok").length;
      setCommit({ status: "done", applied, failed: res.outcomes.length - applied });
      if (applied > 0) onApplied();
    } catch (reason) {
      setCommit({ status: "error", error: parseApiError(reason) });
    }
  }, [api, connectionId, table, primaryKey, onApplied]);

  return { pending, commit, edit, addRow, remove, undo, discard, dismiss, run, changed: changedRows(pending), bad: badCells(pending) };
}
