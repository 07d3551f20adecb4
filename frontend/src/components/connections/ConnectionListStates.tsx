import type { ApiError } from "../../api";
import { ErrorState } from "../frame/ErrorLine";
import "./connections.css";

/** ConnectionListLoading shows placeholder rows while the list loads. */
export function ConnectionListLoading() {
  return (
    <div className="list-state" role="status" aria-live="polite">
      <span className="visually-hidden">Loading connections…</span>
      {[0, 1, 2].map((i) => (
        <div key={i} className="skeleton-row" aria-hidden="true">
          <span className="skeleton skeleton--badge" />
          <span className="skeleton-row__lines">
            <span className="skeleton skeleton--line" />
            <span className="skeleton skeleton--line skeleton--short" />
          </span>
        </div>
      ))}
    </div>
  );
}

/** ConnectionListEmpty says that nothing is saved yet and offers to add a connection. */
export function ConnectionListEmpty({ onNew }: { onNew?: () => void }) {
  return (
    <div className="list-state list-state--empty" role="status">
      <p className="list-state__title">No saved connections</p>
      {onNew ? (
        <p className="list-state__hint">
          <button type="button" className="btn btn--primary" onClick={onNew}>
            New connection
          </button>{" "}
          (Ctrl+N), or <code>app connection add</code> in a terminal.
        </p>
      ) : (
        <p className="list-state__hint">
          Add one from a terminal with <code>app connection add</code>; it appears here.
        </p>
      )}
    </div>
  );
}

/** ConnectionListError shows why the list could not load, with a retry button. */
export function ConnectionListError({ error, onRetry }: { error: ApiError; onRetry: () => void }) {
  return (
    <ErrorState title="Could not load connections" error={error} onRetry={onRetry} />
  );
}
