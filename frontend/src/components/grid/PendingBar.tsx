import type { CommitState } from "./usePendingEdits";
import "./grid.css";

interface Props {
  changed: number;
  bad: number;
  canUndo: boolean;
  commit: CommitState;
  onCommit: () => void;
  onDiscard: () => void;
  onUndo: () => void;
  /** onDismiss hides the last commit's outcome once nothing is pending. */
  onDismiss?: () => void;
  /** Rows the last commit did not apply (by the grid's ref of the row), with the reason. */
  failures?: Record<string, string>;
  /** nameOf names a row by its ref for a person: its key's text, or "new row". */
  nameOf?: (ref: string) => string;
}

const newOrRef = (ref: string) => (ref.startsWith("new:") ? "new row" : ref);

/** How many not-applied rows the bar lists by name. */
const LISTED = 5;

const rows = (n: number) => (n === 1 ? "1 row" : `${n.toLocaleString("en-US")} rows`);

/** PendingBar counts the pending changes and offers Commit, Undo and Discard, with the last commit's outcome. */
export function PendingBar({ changed, bad, canUndo, commit, onCommit, onDiscard, onUndo, onDismiss, failures = {}, nameOf = newOrRef }: Props) {
  const busy = commit.status === "committing";
  if (changed === 0 && commit.status === "idle") return null;
  return (
    <div className="pending-bar" role="region" aria-label="Pending changes">
      <span className="pending-bar__count">
        {changed > 0 ? `${rows(changed)} changed, not yet written` : "No pending changes"}
        {bad > 0 && <span className="pending-bar__bad"> · {bad === 1 ? "1 value does not fit its column" : `${bad} values do not fit their columns`}: fix or undo before committing</span>}
      </span>
      <span className="pending-bar__outcome" role="status" aria-live="polite">
        {commit.status === "committing" && `Committing ${rows(commit.rows)}…`}
        {commit.status === "done" &&
          (commit.failed > 0
            ? `${rows(commit.applied)} written; ${rows(commit.failed)} not: ${commit.failed === 1 ? "it stays" : "they stay"} pending, the reason below`
            : `${rows(commit.applied)} written`)}
        {commit.status === "declined" && "Nothing was written: the deletion was not confirmed."}
      </span>
      {commit.status === "error" && (
        <span className="pending-bar__error" role="alert">
          Not committed: {commit.error.message}. Your changes are kept.
        </span>
      )}
      {Object.keys(failures).length > 0 && (
        // Listed here too: a failed row may no longer be on the page (another client deleted it).
        <ul className="pending-bar__failures" aria-label="Rows not applied">
          {Object.entries(failures)
            .slice(0, LISTED)
            .map(([ref, why]) => (
              <li key={ref}>
                <span className="cell--mono">{nameOf(ref)}</span>: {why}
              </li>
            ))}
          {Object.keys(failures).length > LISTED && <li>and {Object.keys(failures).length - LISTED} more</li>}
        </ul>
      )}
      {changed === 0 && !busy && onDismiss && (
        <button type="button" className="btn btn--small btn--ghost" onClick={onDismiss} title="Hide the outcome of the last commit">
          Dismiss
        </button>
      )}
      <button type="button" className="btn btn--small" disabled={busy || !canUndo} onClick={onUndo} title="Undo the last change (Ctrl+Z)">
        Undo
      </button>
      <button type="button" className="btn btn--small" disabled={busy || changed === 0} onClick={onDiscard}>
        Discard all
      </button>
      <button type="button" className="btn btn--small btn--primary" disabled={busy || changed === 0 || bad > 0} onClick={onCommit} title="Write the changes (Ctrl+S)">
        {busy ? "Committing…" : "Commit"}
      </button>
    </div>
  );
}
