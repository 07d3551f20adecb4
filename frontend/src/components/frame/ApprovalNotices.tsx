import { useEffect, useState } from "react";
import { useApi, type ApprovalGranted } from "../../api";
import { Icon, X } from "../icons";
import { useAction } from "./useAction";
import "./frame.css";

/**
 * ApprovalNotices follows the native approval dialog: after the user approved an AI client's
 * write, it offers to remember that approval for the connection until App restarts (never
 * offered for destructive statements: the backend sends no event for them). It also reports
 * the window's focus, so a waiting approval is announced by a desktop notification when the
 * user is elsewhere.
 */
export function ApprovalNotices() {
  const api = useApi();
  const [granted, setGranted] = useState<ApprovalGranted[]>([]);
  const { run, error, clear } = useAction();

  useEffect(() => api.approvals.onGranted((g) => setGranted((list) => [...list, g].slice(-3))), [api]);

  useEffect(() => {
    const report = (focused: boolean) => () => void api.approvals.setFocused(focused).catch(() => {});
    const onFocus = report(true);
    const onBlur = report(false);
    window.addEventListener("focus", onFocus);
    window.addEventListener("blur", onBlur);
    // A window that opens focused gets no focus event; report where it starts.
    report(document.hasFocus())();
    return () => {
      window.removeEventListener("focus", onFocus);
      window.removeEventListener("blur", onBlur);
    };
  }, [api]);

  const dismiss = (ticket: string) => setGranted((list) => list.filter((g) => g.ticket !== ticket));
  // The notice goes either way: a failed remember says why on a line of its own.
  const remember = async (g: ApprovalGranted) => {
    await run(() => api.approvals.remember(g.ticket));
    dismiss(g.ticket);
  };

  if (granted.length === 0 && !error) return null;
  return (
    <div className="notices notices--approvals" aria-live="polite">
      {granted.map((g) => (
        <div key={g.ticket} className="notice" role="status">
          <div className="notice__text">
            <p className="notice__title">
              Approved {g.client}'s statement on {g.connection}
            </p>
            <p className="notice__message">Token: {g.token}</p>
          </div>
          <button type="button" className="btn btn--small" onClick={() => void remember(g)}>
            Remember for {g.connection} until App restarts
          </button>
          <button
            type="button"
            className="tab__close"
            aria-label={`Dismiss the approval notice for ${g.connection}`}
            onClick={() => dismiss(g.ticket)}
          >
            <Icon icon={X} />
          </button>
        </div>
      ))}
      {error && (
        <div className="notice" role="alert">
          <span className="notice__text">
            <span className="notice__message">{error.message}</span>
          </span>
          <button type="button" className="btn btn--small" onClick={clear}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
