import type { ReactNode } from "react";

/** Header is the top bar: the app's name on the left, actions on the right. */
export function Header({ actions }: { actions?: ReactNode }) {
  return (
    <header className="app-header">
      <div className="app-header__brand">
        <span className="app-logo" aria-hidden="true" />
        <h1 className="app-header__title">App</h1>
      </div>
      <div className="app-header__actions">{actions}</div>
    </header>
  );
}
