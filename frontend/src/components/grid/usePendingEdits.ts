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
 * onApplied runs after a commit that wrote something, to read the page again.
 */
export function usePendingEdits(connectionId: string, table: string, onApplied: () => void) {
  const api = useApi();
  const [pending, setPending] = useState<Pending>(emptyPending);
  const [commit, setCommit] = useState<CommitState>({ status: "idle" });
  const pendingRef = useRef(pending);
  pendingRef.current = pending;

  /** check types one typed cell against the schema (nothing sent); a stale answer is dropped. */
  const check = useCallback(
    (key: string, column: string, value: CellText) => {
      api.explorer.checkCells(connectionId, table, { [column]: value }).then(
        (errors) => setPending((p) => (pendingValue(p, key, column) === value ? setCellErrors(p, key, errors, [column]) : p)),
        (reason) => {
          // The check could not run (the connection dropped): the commit checks again.
          const e = parseApiError(reason);
          setPending((p) => (pendingValue(p, key, column) === value ? setCellErrors(p, key, {}, [column]) : p));
          setCommit((c) => (c.status === "committing" ? c : { status: "error", error: e }));
        },
      );
    },
    [api, connectionId, table],
  );

  const edit = useCallback(
    (key: string, column: string, value: CellText, original: CellText) => {
      setPending((p) => editCell(p, key, column, value, original));
      setCommit((c) => (c.status === "committing" ? c : { status: "idle" }));
      check(key, column, value);
    },
    [check],
  );

  const addRow = useCallback(() => {
    let key = "";
    setPending((p) => {
      const [next, k] = addRowTo(p);
      key = k;
      return next;
    });
    return key;
  }, []);

  const remove = useCallback((rows: { key: string; uuid: string }[]) => setPending((p) => deleteRows(p, rows)), []);
  // An undo brings back earlier text: check it again, as its check may have answered after
  // the state it returns to was remembered.
  const undo = useCallback(() => {
    const before = pendingRef.current;
    const after = undoIn(before);
    pendingRef.current = after;
    setPending(after);
    for (const c of changedCells(before, after)) if (c.value !== null) check(c.key, c.column, c.value);
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
      const req = toCommit(p);
      const res = await api.explorer.commit(connectionId, table, req);
      if (res.declined) {
        setCommit({ status: "declined" });
        return;
      }
      setPending((cur) => applyOutcomes(cur, res.outcomes, req));
      const applied = res.outcomes.filter((o) => o.status === "ok").length;
      setCommit({ status: "done", applied, failed: res.outcomes.length - applied });
      if (applied > 0) onApplied();
    } catch (reason) {
      setCommit({ status: "error", error: parseApiError(reason) });
    }
  }, [api, connectionId, table, onApplied]);

  return { pending, commit, edit, addRow, remove, undo, discard, dismiss, run, changed: changedRows(pending), bad: badCells(pending) };
}
