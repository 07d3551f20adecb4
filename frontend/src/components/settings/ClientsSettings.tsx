import { useCallback, useEffect } from "react";
import { useApi, type ConnectedClient } from "../../api";
import { useLoaded } from "../../hooks";
import { ErrorLine } from "../frame/ErrorLine";
import { useAction } from "../frame/useAction";
import "./settings.css";

/** tokenText says who the client called as: its token and level, anonymous, or refused. */
export function tokenText(c: ConnectedClient): string {
  if (c.principal === "anonymous") return "anonymous";
  if (c.principal === "") return "no valid token (refused)";
  return `${c.tokenName || c.principal} (${c.level || "unknown level"})`;
}

/** How often the open panel refreshes the list (the table lives in memory; reading is cheap). */
export const CLIENTS_REFRESH_MS = 2000;

/**
 * ClientsSettings is Settings, Connected clients (issue 11): the AI clients that called the
 * MCP endpoint in the last 15 minutes, with their token, level, first and last call, requests
 * and errors; Disconnect revokes the client's token after the app's native confirmation.
 */
export function ClientsSettings() {
  const api = useApi();
  const { state, reload } = useLoaded(useCallback(() => api.clients.recent(), [api]));
  const { run, error } = useAction();

  useEffect(() => {
    const t = setInterval(() => void reload(), CLIENTS_REFRESH_MS);
    return () => clearInterval(t);
  }, [reload]);

  const disconnect = (c: ConnectedClient) => run(() => api.clients.disconnect(c.principal, c.name), (gone) => (gone ? reload() : undefined));

  const time = (t: string) => (t ? t.replace("T", " ").slice(11, 19) : "—");

  return (
    <fieldset className="field clients" aria-label="Connected clients">
      <legend>Connected clients</legend>
      {state.status === "loading" && <p className="panel__note">Loading…</p>}
      {state.status === "error" && (
        <ErrorLine error={state.error} />
      )}
      {state.status === "ready" &&
        (state.value.length === 0 ? (
          <p className="panel__note">No AI client called in the last 15 minutes.</p>
        ) : (
          <table className="token-table" aria-label="Clients">
            <thead>
              <tr>
                <th>Client</th>
                <th>Token</th>
                <th>First call</th>
                <th>Last call</th>
                <th>Requests</th>
                <th>Errors</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {state.value.map((c) => {
                const name = c.name || "unnamed client";
                return (
                  <tr key={`${c.principal}/${c.name}`} aria-label={name}>
                    <td>
                      {name}
                      {c.version && <span className="plugin-row__desc"> {c.version}</span>}
                    </td>
                    <td>{tokenText(c)}</td>
                    <td>{time(c.firstSeen)}</td>
                    <td>{time(c.lastSeen)}</td>
                    <td>{c.requests}</td>
                    <td>{c.errors}</td>
                    <td>
                      {c.principal.startsWith("token:") && (
                        <button type="button" className="btn btn--small" onClick={() => void disconnect(c)}>
                          Disconnect {name}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ))}
      {error && (
        <ErrorLine error={error} />
      )}
    </fieldset>
  );
}
