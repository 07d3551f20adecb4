import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { useApi, type Connection, type Token } from "../../api";
import { useLoaded } from "../../hooks";
import { EXPIRIES, LEVELS } from "./tokenOptions";
import { SelectRow } from "./SelectRow";
import { ErrorLine } from "../frame/ErrorLine";
import { useAction } from "../frame/useAction";
import "./settings.css";

/**
 * TokensSettings is Settings, MCP tokens (issue 11): the tokens AI clients authenticate with,
 * listed without their secret; create one (shown once, with a copy button); revoke one after
 * the app's native confirmation. The running server applies each change within a second.
 */
export function TokensSettings({ connections, version = 0 }: { connections: Connection[]; version?: number }) {
  const api = useApi();
  const { state, reload: load } = useLoaded(useCallback(() => api.tokens.list(), [api]));
  // version changes when a token is made elsewhere (Connect a client): the list is read again,
  // and a secret shown here once, or a name being typed, stays.
  const seenVersion = useRef(version);
  useEffect(() => {
    if (version === seenVersion.current) return;
    seenVersion.current = version;
    void load();
  }, [version, load]);
  const [name, setName] = useState("");
  const [level, setLevel] = useState("readOnly");
  const [expires, setExpires] = useState("30d");
  const [only, setOnly] = useState<ReadonlySet<string>>(new Set());
  const [created, setCreated] = useState<{ token: Token; secret: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const { run, error } = useAction();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    setCopied(false);
    await run(
      () => api.tokens.create({ name, level, expires, connections: [...only] }),
      async (made) => {
        setCreated(made);
        setName("");
        setOnly(new Set());
        await load();
      },
    );
  };

  const revoke = (t: Token) =>
    run(
      () => api.tokens.revoke(t.id),
      async (revoked) => {
        if (!revoked) return;
        if (created?.token.id === t.id) setCreated(null);
        await load();
      },
    );

  const copy = (secret: string) => run(() => api.copy(secret), () => setCopied(true));

  const connName = (id: string) => connections.find((c) => c.id === id)?.name ?? id;

  return (
    <fieldset className="field tokens" aria-label="MCP tokens">
      <legend>MCP tokens</legend>
      <p className="panel__note">AI clients send one of these as <code>Authorization: Bearer &lt;token&gt;</code>.</p>
      {state.status === "loading" && <p className="panel__note">Loading tokens…</p>}
      {state.status === "error" && (
        <ErrorLine error={state.error} />
      )}
      {state.status === "ready" &&
        (state.value.length === 0 ? (
          <p className="panel__note">No tokens yet.</p>
        ) : (
          <table className="token-table" aria-label="Tokens">
            <thead>
              <tr>
                <th>Name</th>
                <th>Level</th>
                <th>Connections</th>
                <th>Expires</th>
                <th>Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {state.value.map((t) => (
                <tr key={t.id} aria-label={t.name}>
                  <td>{t.name}</td>
                  <td>{t.level}</td>
                  <td>{t.connections.length === 0 ? "all" : t.connections.map(connName).join(", ")}</td>
                  <td>{t.expired ? "expired" : t.expiresAt ? t.expiresAt.slice(0, 10) : "never"}</td>
                  <td>{t.lastUsedAt ? t.lastUsedAt.replace("T", " ").slice(0, 16) : "—"}</td>
                  <td>
                    <button type="button" className="btn btn--small" onClick={() => void revoke(t)}>
                      Revoke {t.name}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      {created && (
        <div className="token-created" role="status" aria-label="New token">
          <p>
            Token <strong>{created.token.name}</strong> created. Copy it now: it is shown only this once.
          </p>
          <code className="token-created__secret">{created.secret}</code>
          <div className="form-actions">
            <button type="button" className="btn btn--primary" onClick={() => void copy(created.secret)}>
              {copied ? "Copied" : "Copy token"}
            </button>
            <button type="button" className="btn" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      <form className="token-form" onSubmit={(e) => void create(e)} aria-label="Create a token">
        <div className="form-row">
          <label className="form-row__label" htmlFor="token-name">
            Token name
          </label>
          <input id="token-name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" placeholder="claude-desktop" />
        </div>
        <div className="form-pair">
          <SelectRow id="token-level" label="Level" value={level} onChange={setLevel} options={LEVELS} />
          <SelectRow id="token-expires" label="Expires" value={expires} onChange={setExpires} options={EXPIRIES} />
        </div>
        {connections.length > 0 && (
          <fieldset className="token-conns">
            <legend>Connections (none checked: all)</legend>
            {connections.map((c) => (
              <label key={c.id} className="form-check">
                <input
                  type="checkbox"
                  checked={only.has(c.id)}
                  onChange={(e) =>
                    setOnly((s) => {
                      const next = new Set(s);
                      if (e.target.checked) next.add(c.id);
                      else next.delete(c.id);
                      return next;
                    })
                  }
                />
                {c.name}
              </label>
            ))}
          </fieldset>
        )}
        {error && (
          <ErrorLine error={error} />
        )}
        <div className="form-actions">
          <button type="submit" className="btn btn--primary">
            Create token
          </button>
        </div>
      </form>
    </fieldset>
  );
}
