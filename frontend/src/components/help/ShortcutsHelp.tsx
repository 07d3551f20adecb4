import { useCallback, useEffect, useState } from "react";
import { keyLabel, keysText, SHORTCUTS } from "./shortcuts";
import { Icon, Keyboard } from "../icons";
import { Modal } from "../frame/Modal";
import "./help.css";

/** isTyping: the key goes to a text field or the query editor, where ? is a character. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest(".cm-editor, [contenteditable=''], [contenteditable='true']")) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !["button", "checkbox", "radio", "range", "color", "file", "reset", "submit", "image"].includes(target.type);
  }
  return false;
}

/**
 * useShortcutsHelp opens the keyboard shortcuts overlay on ? (unless the user is typing in a
 * field or the editor) and on F1 (anywhere), and returns its state for the header's button.
 */
export function useShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === "F1" && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        setOpen(true);
      } else if (e.key === "?" && !e.ctrlKey && !e.metaKey && !e.altKey && !e.defaultPrevented && !isTyping(e.target)) {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return { open, show, close };
}

/**
 * ShortcutsOverlay is the modal list of keyboard shortcuts (from shortcuts.ts). Escape, ?, F1,
 * the Close button or a click outside close it; while open, Tab stays inside it and other
 * shortcuts do nothing; focus returns to where it was (Modal).
 */
export function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} closeKeys={["F1", "?"]} wide>
      <div className="help-dialog__body" tabIndex={0} aria-label="Shortcut list">
        {SHORTCUTS.map((g) => (
          <section key={g.title} className="help-group" aria-labelledby={`help-${g.title}`}>
            <h3 id={`help-${g.title}`} className="help-group__title">
              {g.title} <span className="help-group__where">{g.where}</span>
            </h3>
            <dl className="help-list">
              {g.shortcuts.map((s) => (
                <div key={s.action} className="help-list__row">
                  <dt className="help-list__keys" aria-label={keysText(s.keys)}>
                    {s.keys.map((combo, i) => (
                      <span key={i} className="help-combo" aria-hidden="true">
                        {i > 0 && <span className="help-or">or</span>}
                        {combo.map((k, j) => (
                          <span key={j}>
                            {j > 0 && <span className="help-plus">+</span>}
                            <kbd>{keyLabel(k)}</kbd>
                          </span>
                        ))}
                      </span>
                    ))}
                  </dt>
                  <dd className="help-list__action">{s.action}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  );
}

/** ShortcutsButton is the header's way in (the overlay also opens on ? and F1). */
export function ShortcutsButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="icon-btn" onClick={onClick} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (? or F1)">
      <Icon icon={Keyboard} />
      <span className="icon-btn__label">Shortcuts</span>
    </button>
  );
}
