import logoUrl from "../../assets/logo.svg";

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
        <dl className="shortcuts">
          <dt><kbd>↑</kbd> <kbd>↓</kbd></dt>
          <dd>Move through connections</dd>
          <dt><kbd>Enter</kbd></dt>
          <dd>Open the selected connection or collection</dd>
          <dt><kbd>→</kbd> <kbd>←</kbd></dt>
          <dd>Show or hide a connection's collections</dd>
          <dt><kbd>Ctrl</kbd> <kbd>N</kbd></dt>
          <dd>New connection</dd>
          <dt><kbd>F2</kbd> / <kbd>Delete</kbd></dt>
          <dd>Edit or delete the selected connection</dd>
          <dt><kbd>Ctrl</kbd> <kbd>,</kbd></dt>
          <dd>Settings</dd>
        </dl>
      </div>
    </section>
  );
}
