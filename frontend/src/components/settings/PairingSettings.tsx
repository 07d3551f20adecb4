import { useCallback, useState, type FormEvent } from "react";
import { useApi, type PairingResult } from "../../api";
import { useLoaded } from "../../hooks";
import { EXPIRIES, LEVELS } from "./tokenOptions";
import { SelectRow } from "./SelectRow";
import { ErrorLine } from "../layout/ErrorLine";
import { useAction } from "../layout/useAction";

/**
 * PairingSettings is Settings, Connect a client (issue 11): choose the AI client, the token's
 * level and expiry; the app mints the token and shows that client's configuration with a copy
 * button, or writes it into the client's config file (after a native confirmation and a
 * backup). The configuration is the HTTP endpoint, or the stdio bridge app-mcp for clients that
 * only start local programs (Claude Desktop) and for anyone who asks for it.
 */
export function PairingSettings({ onTokensChanged }: { onTokensChanged?: () => void }) {
  const api = useApi();
  const { state } = useLoaded(useCallback(() => api.pairing.clients(), [api]));
  const [client, setClient] = useState("cursor");
  const [level, setLevel] = useState("readOnly");
  const [expires, setExpires] = useState("90d");
  const [write, setWrite] = useState(false);
  const [stdio, setStdio] = useState(false);
  const [result, setResult] = useState<PairingResult | null>(null);
  const { run, error } = useAction();
  const [copied, setCopied] = useState(false);
  const clients = state.status === "ready" ? state.value : [];
  const chosen = clients.find((c) => c.id === client);

  const connect = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    setCopied(false);
    await run(
      () =>
        api.pairing.connect({
          client,
          level,
          expires,
          connections: [],
          write: write && !!chosen?.file,
          stdio: stdio || !!chosen?.stdioOnly,
        }),
      (r) => {
        if (r.declined) return;
        setResult(r);
        onTokensChanged?.();
      },
    );
  };

  return (
    <fieldset className="field pairing" aria-label="Connect a client">
      <legend>Connect a client</legend>
      {state.status === "error" && (
        <ErrorLine error={state.error} />
      )}
      <form className="token-form" aria-label="Connect a client form" onSubmit={(e) => void connect(e)}>
        <div className="form-pair">
          <SelectRow
            id="pair-client"
            label="Client"
            value={client}
            onChange={setClient}
            options={clients.map((c) => ({ value: c.id, label: c.title }))}
          />
          <SelectRow id="pair-expires" label="Expires" value={expires} onChange={setExpires} options={EXPIRIES} />
        </div>
        <SelectRow id="pair-level" label="Level" value={level} onChange={setLevel} options={LEVELS} />
        {chosen?.unsupported ? (
          <ErrorLine>
            {chosen.title} cannot be connected yet: {chosen.unsupported}.
          </ErrorLine>
        ) : (
          <>
            <label className="form-check">
              <input
                type="checkbox"
                checked={stdio || !!chosen?.stdioOnly}
                disabled={!!chosen?.stdioOnly}
                onChange={(e) => setStdio(e.target.checked)}
              />
              Through the stdio bridge app-mcp (a local command){chosen?.stdioOnly ? `: ${chosen.title} only starts local programs` : ""}
            </label>
            {chosen?.file && (
              <label className="form-check">
                <input type="checkbox" checked={write} onChange={(e) => setWrite(e.target.checked)} />
                Write it into {chosen.file} (backed up first)
              </label>
            )}
            <div className="form-actions">
              <button type="submit" className="btn btn--primary">
                Connect {chosen?.title ?? "client"}
              </button>
            </div>
          </>
        )}
      </form>
      {error && (
        <ErrorLine error={error} />
      )}
      {result && (
        <div className="token-created" role="status" aria-label="Client configuration">
          <p>
            Token <strong>{result.token.name}</strong> ({result.token.level}) created.{" "}
            {result.written
              ? `Written into ${result.written}${result.backup ? ` (backup: ${result.backup})` : ""}.`
              : `Add this to ${result.file || "the client's MCP configuration"}; the token is in it and shown nowhere else.`}
          </p>
          <pre className="token-created__secret pairing-json">{result.json}</pre>
          {result.note && <p className="panel__note">{result.note}</p>}
          <div className="form-actions">
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => void run(() => api.copy(result.json), () => setCopied(true))}
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
