import type { ReactNode } from "react";
import type { ApiError } from "../../api";

/**
 * ErrorLine is the one way a form or a settings section says what went wrong: a line read out
 * as an alert. It shows children when given, else the error's message, and nothing at all
 * when there is neither (so `<ErrorLine error={error} />` needs no guard).
 */
export function ErrorLine({ error, children }: { error?: ApiError | null; children?: ReactNode }) {
  if (children === undefined && !error) return null;
  return (
    <p className="form-msg form-msg--error" role="alert">
      {children ?? error?.message}
    </p>
  );
}

/**
 * ErrorState is a panel that could not show what it is for: what failed (title), the error's
 * message, and Retry when the read can be tried again.
 */
export function ErrorState({ title, error, onRetry }: { title: ReactNode; error: ApiError; onRetry?: () => void }) {
  return (
    <div className="list-state list-state--error" role="alert">
      <p className="list-state__title">{title}</p>
      <p className="list-state__hint">{error.message}</p>
      {onRetry && (
        <button type="button" className="btn btn--small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
