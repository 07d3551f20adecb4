import { useEffect, useState } from "react";
import { useApi, type MCPSettings } from "../../api";
import { Icon, X } from "../icons";
import "./frame.css";

/**
 * PortNotice tells the person, wherever they are in the window, that the MCP server could not
 * have its port (another program holds it) or that AI clients were set up with another port,
 * and which clients must be re-paired; Open Settings leads to the one-click re-pair (issue 25,
 * item 10). It reads the server's state when the window opens and once the backend started.
 */
export function PortNotice({ onOpenSettings }: { onOpenSettings: () => void }) {
  const api = useApi();
  const [state, setState] = useState<MCPSettings | null>(null);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    let live = true;
    const read = () =>
      void api.settings
        .mcp()
        .then((s) => live && setState(s))
        .catch(() => {});
    read();
    const off = api.settings.onStarted(read);
    return () => {
      live = false;
      off();
    };
  }, [api]);

  if (dismissed || !state || (!state.portNotice && state.staleClients.length === 0)) return null;
  const n = state.staleClients.length;
  return (
    <div className="notices notices--port" aria-live="polite">
      <div className="notice" role="status" aria-label="MCP port">
        <div className="notice__text">
          <p className="notice__title">{state.portNotice ? `MCP server moved to port ${state.boundPort}` : "AI clients point at another port"}</p>
          <p className="notice__message">
            {n === 0
              ? "No AI client the app knows was set up with the old port."
              : `${state.staleClients.map((c) => c.title).join(", ")} cannot reach App until ${n === 1 ? "it is" : "they are"} re-paired.`}
          </p>
        </div>
        {n > 0 && (
          <button
            type="button"
            className="btn btn--small"
            onClick={() => {
              setDismissed(true);
              onOpenSettings();
            }}
          >
            Re-pair in Settings
          </button>
        )}
        <button type="button" className="tab__close" aria-label="Dismiss the MCP port notice" onClick={() => setDismissed(true)}>
          <Icon icon={X} />
        </button>
      </div>
    </div>
  );
}
