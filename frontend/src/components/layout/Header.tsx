import type { ReactNode } from "react";
import logoUrl from "../../assets/logo.svg";

/** Header is the top bar: the app's name on the left, actions on the right. */
export function Header({ actions }: { actions?: ReactNode }) {
  return (
    <header className="app-header">
      <div className="app-header__brand">
        <img className="app-logo" src={logoUrl} alt="" aria-hidden="true" />
        <h1 className="app-header__title">App</h1>
      </div>
      <div className="app-header__actions">{actions}</div>
    </header>
  );
}
