import { useCallback, useState, type FormEvent } from "react";
import { useApi, type PairingClient, type PairingRemoved, type PairingResult } from "../../api";
import { useLoaded } from "../../hooks";
import { EXPIRIES, LEVELS } from "./tokenOptions";
import { SelectRow } from "./SelectRow";
import { ErrorLine } from "../frame/ErrorLine";
import { useAction } from "../frame/useAction";
import "./settings.css";

/**
 * PairingSettings is Settings, Connect a client (issues 11 and 41): every AI client the app
 * configures, the file it writes for each (JSON, TOML or YAML, comments kept), whether the app's
 * server is in it now, and the check that proves that file. Choose a client, the token's level
 * and expiry; the app mints the token and shows the configuration with a copy button, or writes
 * it into the client's file (after a native confirmation and a backup). Remove takes it out
 * again and revokes its token. A project's file (.mcp.json) is shared, so it holds no token.
 */
export function PairingSettings({ onTokensChanged }: { onTokensChanged?: () => void }) {
  const api = useApi();
  const { state, reload } = useLoaded(useCallback(() => api.pairing.clients(), [api]));
  const [client, setClient] = useState("cursor");
  const [level, setLevel] = useState("readOnly");
  const [expires, setExpires] = useState("90d");
  const [write, setWrite] = useState(false);
  const [stdio, setStdio] = useState(false);
  const [project, setProject] = useState("");
  const [result, setResult] = useState<PairingResult | null>(null);
  const [removed, setRemoved] = useState<PairingRemoved | null>(null);
  const { run, error } = useAction();
  const [copied, setCopied] = useState(false);
  const clients = state.status === "ready" ? state.value : [];
  const chosen = clients.find((c) => c.id === client);
  const fileKnown = !!chosen?.file || (!!chosen?.project && project.trim() !== "");

  const choose = (id: string) => {
    setClient(id);
    setResult(null);
    setRemoved(null);
  };

  const connect = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    setRemoved(null);
    setCopied(false);
    await run(
      () =>
        api.pairing.connect({
          client,
          level,
          expires,
          connections: [],
          write: write && fileKnown,
          stdio: stdio || !!chosen?.stdioOnly,
          project: project.trim(),
        }),
      (r) => {
        if (r.declined) return;
        setResult(r);
        if (r.token) onTokensChanged?.();
        if (r.written) void reload();
      },
    );
  };

  const remove = async () => {
    setResult(null);
    setRemoved(null);
    await run(
      () => api.pairing.remove({ client, project: project.trim() }),
      (r) => {
        if (r.declined) return;
        setRemoved(r);
        if (r.revoked) onTokensChanged?.();
        void reload();
      },
    );
  };

  return (
    <fieldset className="field pairing" aria-label="Connect a client">
      <legend>Connect a client</legend>
      {state.status === "loading" && <p className="panel__note">Loading the clients…</p>}
      {state.status === "error" && <ErrorLine error={state.error} />}
      {clients.length > 0 && <ClientList clients={clients} chosen={client} onChoose={choose} />}
      <form className="token-form" aria-label="Connect a client form" onSubmit={(e) => void connect(e)}>
        <div className="form-pair">
          <SelectRow
            id="pair-client"
            label="Client"
            value={client}
            onChange={choose}
            options={clients.map((c) => ({ value: c.id, label: c.title }))}
          />
          {!chosen?.project && (
            <SelectRow id="pair-expires" label="Expires" value={expires} onChange={setExpires} options={EXPIRIES} />
          )}
        </div>
        {chosen?.project ? (
          <div className="form-row">
            <label className="form-row__label" htmlFor="pair-project">
              Project folder
            </label>
            <input
              id="pair-project"
              value={project}
              onChange={(e) => setProject(e.target.value)}
              autoComplete="off"
              placeholder="/home/me/src/my-project"
            />
          </div>
        ) : (
          <SelectRow id="pair-level" label="Level" value={level} onChange={setLevel} options={LEVELS} />
        )}
        {chosen?.unsupported ? (
          <ErrorLine>
            {chosen.title} cannot be connected yet: {chosen.unsupported}.
          </ErrorLine>
        ) : (
          <>
            {chosen?.project ? (
              <p className="panel__note">
                The project's .mcp.json is shared with the project, so it holds no token: it starts app-mcp, which reaches each
                person's own app with its readOnly access.
              </p>
            ) : (
              <label className="form-check">
                <input
                  type="checkbox"
                  checked={stdio || !!chosen?.stdioOnly}
                  disabled={!!chosen?.stdioOnly}
                  onChange={(e) => setStdio(e.target.checked)}
                />
                Through the stdio bridge app-mcp (a local command)
                {chosen?.stdioOnly ? `: the app gives ${chosen.title} the bridge` : ""}
              </label>
            )}
            {fileKnown && (
              <label className="form-check">
                <input type="checkbox" checked={write} onChange={(e) => setWrite(e.target.checked)} />
                Write it into {chosen?.file || `${project.trim()}/.mcp.json`} (backed up first)
              </label>
            )}
            <div className="form-actions">
              <button type="submit" className="btn btn--primary">
                Connect {chosen?.title ?? "client"}
              </button>
              {(chosen?.configured || (chosen?.project && fileKnown)) && (
                <button type="button" className="btn" onClick={() => void remove()}>
                  Remove from {chosen?.title}
                </button>
              )}
            </div>
          </>
        )}
      </form>
      {error && <ErrorLine error={error} />}
      {removed && (
        <p className="panel__note" role="status" aria-label="Client removed">
          Removed the app's server from {removed.file}
          {removed.backup ? ` (backup: ${removed.backup})` : ""}.
          {removed.revoked ? ` The token ${removed.revoked} it held is revoked.` : ""}
        </p>
      )}
      {result && (
        <div className="token-created" role="status" aria-label="Client configuration">
          <p>
            {result.token ? (
              <>
                Token <strong>{result.token.name}</strong> ({result.token.level}) created.{" "}
              </>
            ) : (
              "No token: this file is shared. "
            )}
            {result.written
              ? `Written into ${result.written}${result.backup ? ` (backup: ${result.backup})` : ""}.`
              : `Add this to ${result.file || "the client's MCP configuration"}${result.token ? "; the token is in it and shown nowhere else" : ""}.`}
          </p>
          <pre className="token-created__secret pairing-json" aria-label={`Configuration (${result.format.toUpperCase()})`}>
            {result.text}
          </pre>
          {result.note && <p className="panel__note">{result.note}</p>}
          <div className="form-actions">
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => void run(() => api.copy(result.text), () => setCopied(true))}
            >
              {copied ? "Copied" : "Copy configuration"}
            </button>
            <button type="button" className="btn" onClick={() => setResult(null)}>
              Done
            </button>
          </div>
        </div>
      )}
    </fieldset>
  );
}

/** ClientList is every client with its file, whether the app's server is in it, and what proves the file. */
function ClientList({ clients, chosen, onChoose }: { clients: PairingClient[]; chosen: string; onChoose: (id: string) => void }) {
  return (
    <table className="token-table pairing-clients" aria-label="Clients the app configures">
      <thead>
        <tr>
          <th>Client</th>
          <th>File</th>
          <th>Proven by</th>
        </tr>
      </thead>
      <tbody>
        {clients.map((c) => (
          <tr key={c.id} aria-label={c.title} aria-selected={c.id === chosen}>
            <td>
              <button type="button" className="btn btn--small" aria-pressed={c.id === chosen} onClick={() => onChoose(c.id)}>
                {c.title}
              </button>
              {c.configured && <span className="pairing-clients__configured"> configured</span>}
            </td>
            <td>
              {c.project ? ".mcp.json in the project folder" : c.file || "a file you choose"} ({c.format})
            </td>
            <td>{c.proof}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
