import logoUrl from "../../assets/logo.svg";
import "./workspace.css";

/** WelcomePanel fills the main area while no tab is open. */
export function WelcomePanel({ hasConnections, onNewConnection }: { hasConnections: boolean; onNewConnection: () => void }) {
  return (
    <section className="panel panel--welcome" aria-label="Welcome">
      <div className="welcome">
        <img className="app-logo app-logo--large" src={logoUrl} alt="" aria-hidden="true" />
        <h2 className="welcome__title">Welcome to App</h2>
        <p className="welcome__text">
          {hasConnections
            ? "Choose a connection on the left to open it."
            : "Save a connection to get started."}
        </p>
        <button type="button" className="btn btn--primary" onClick={onNewConnection}>
          New connection
        </button>
        <p className="welcome__hint">
          Press <kbd>?</kbd> or <kbd>F1</kbd> for every keyboard shortcut.
        </p>
      </div>
    </section>
  );
}
