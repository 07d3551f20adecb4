import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import "./frame.css";

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea, [tabindex]:not([tabindex="-1"])';

interface Props {
  title: string;
  onClose: () => void;
  /** closeKeys close it besides Escape (the shortcuts overlay: ? and F1). */
  closeKeys?: string[];
  /** locked keeps it open (no Escape, no click outside, no Close): something runs that Cancel stops. */
  locked?: boolean;
  wide?: boolean;
  children: ReactNode;
}

/**
 * Modal is the window's dialog shell: a title with Close, Escape or a click outside to close,
 * Tab kept inside while it is open, the window's shortcuts held back, and focus returned to
 * where it was.
 */
export function Modal({ title, onClose, closeKeys = [], locked = false, wide = false, children }: Props) {
  const dialog = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = dialog.current?.querySelector<HTMLElement>("[data-autofocus]") ?? closeButton.current;
    first?.focus();
    // Focus that leaves the dialog (a click on the page behind, a programmatic focus) comes back.
    const onFocusIn = (e: FocusEvent) => {
      if (dialog.current && e.target instanceof Node && !dialog.current.contains(e.target)) {
        (dialog.current.querySelector<HTMLElement>(FOCUSABLE) ?? dialog.current).focus();
      }
    };
    document.addEventListener("focusin", onFocusIn);
    return () => {
      document.removeEventListener("focusin", onFocusIn);
      if (returnTo && returnTo.isConnected) returnTo.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // The window's shortcuts wait while the dialog is open.
    e.stopPropagation();
    if (e.key === "Escape" || closeKeys.includes(e.key)) {
      e.preventDefault();
      if (!locked) onClose();
      return;
    }
    if (e.key !== "Tab" || !dialog.current) return;
    const items = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const firstItem = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && (document.activeElement === firstItem || !dialog.current.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      firstItem.focus();
    }
  };

  return (
    <div className="help-overlay" onMouseDown={(e) => e.target === e.currentTarget && !locked && onClose()}>
      <div
        ref={dialog}
        className={wide ? "help-dialog help-dialog--wide" : "help-dialog"}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="help-dialog__header">
          <h2 className="help-dialog__title">{title}</h2>
          <button ref={closeButton} type="button" className="btn btn--small" onClick={onClose} disabled={locked} title="Close (Esc)">
            Close
          </button>
        </header>
        {children}
      </div>
    </div>
  );
}
