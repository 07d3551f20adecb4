import type { ReactNode } from "react";
import logoUrl from "../../assets/logo.svg";
import { ShortcutsButton } from "../help/ShortcutsHelp";
import "./frame.css";

/**
 * Header is the top bar: the app's name on the left, actions on the right, the last of them
 * the keyboard shortcuts button when onShowShortcuts is given.
 */
export function Header({ actions, onShowShortcuts }: { actions?: ReactNode; onShowShortcuts?: () => void }) {
  return (
    <header className="app-header">
      <div className="app-header__brand">
        <img className="app-logo" src={logoUrl} alt="" aria-hidden="true" />
        <h1 className="app-header__title">App</h1>
      </div>
      <div className="app-header__actions">
        {actions}
        {onShowShortcuts && <ShortcutsButton onClick={onShowShortcuts} />}
      </div>
    </header>
  );
}
