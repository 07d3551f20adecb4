import { useCallback, useRef, useState } from "react";
import { parseApiError, useApi, type ApiError, type MCPSettings, type RepairedClient } from "../../api";
import { useLoaded } from "../../hooks";
import { ErrorLine } from "../frame/ErrorLine";
import { useAction } from "../frame/useAction";
import "./settings.css";

type NumberKey = "port" | "defaultRowLimit" | "maxRowLimit" | "queryTimeoutSeconds" | "rateLimitPerMinute";
type BoolKey = "enabled" | "requireAuth" | "externalAccess";

const NUMBERS: { key: NumberKey; label: string; hint: string }[] = [
  { key: "port", label: "Port", hint: "on 127.0.0.1; 0 picks a free one (clients read it from the handshake file)" },
  { key: "defaultRowLimit", label: "Default row limit", hint: "rows a tool returns when the client names no limit" },
  { key: "maxRowLimit", label: "Maximum row limit", hint: "at most 10,000" },
  { key: "queryTimeoutSeconds", label: "Query timeout (seconds)", hint: "one statement run for an AI client, 1 to 330" },
  { key: "rateLimitPerMinute", label: "Requests a minute per client", hint: "0 for no limit" },
];

const SWITCHES: { key: BoolKey; label: string }[] = [
  { key: "enabled", label: "Run the MCP server" },
  { key: "requireAuth", label: "Require a token (Authorization: Bearer)" },
  { key: "externalAccess", label: "Allow AI clients (off answers every call with 403)" },
];

/**
 * MCPServerSettings is Settings, MCP server (issue 11): the status line ("Running on
 * 127.0.0.1:PORT", or why not), and the server's settings, each applied when changed, without
 * restarting the app. A refused value is named beside the settings and nothing changes.
 */
export function MCPServerSettings() {
  const api = useApi();
  const { state } = useLoaded(useCallback(() => api.settings.mcp(), [api]));
  const [current, setCurrent] = useState<MCPSettings | null>(null);
  const [drafts, setDrafts] = useState<Partial<Record<NumberKey, string>>>({});
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const s = current ?? (state.status === "ready" ? state.value : null);

  // A switch shows its new state at once (a controlled checkbox that waited for the answer
  // would flip back under the pointer, and a second click would send the opposite).
  //
  // Changes are sent one after the other, so each answer (the whole settings) is newer than the
  // one before it and the last one is what the server holds; a refusal puts back only its own
  // setting, not switches changed since.
  const queue = useRef<Promise<void>>(Promise.resolve());
  // Switches clicked whose change is not answered yet: shown over every answer until theirs.
  const waiting = useRef<{ key: keyof MCPSettings; on: boolean }[]>([]);
  const inFlight = useRef(0);
  const over = (snap: MCPSettings): MCPSettings => waiting.current.reduce((acc, w) => ({ ...acc, [w.key]: w.on }), snap);
  const set = (key: keyof MCPSettings, value: string) => {
    setError(null);
    setSaving(true);
    const before = s?.[key];
    const entry = typeof before === "boolean" ? { key, on: value === "true" } : null;
    inFlight.current++;
    if (s && entry) {
      waiting.current = [...waiting.current, entry];
      setCurrent((c) => over(c ?? s));
    }
    const run = async () => {
      try {
        const snap = await api.settings.setMCP(key, value);
        waiting.current = waiting.current.filter((w) => w !== entry);
        setCurrent(over(snap));
        setDrafts((d) => {
          const { [key as NumberKey]: _, ...rest } = d;
          return rest;
        });
      } catch (reason) {
        waiting.current = waiting.current.filter((w) => w !== entry);
        if (before !== undefined) setCurrent((c) => (c ? over({ ...c, [key]: before }) : c));
        setError(parseApiError(reason));
      } finally {
        if (--inFlight.current === 0) setSaving(false);
      }
    };
    queue.current = queue.current.then(run);
    return queue.current;
  };

  return (
    <fieldset className="field mcp-settings" aria-label="MCP server">
      <legend>MCP server</legend>
      {state.status === "loading" && !s && <p className="panel__note">Reading the settings…</p>}
      {state.status === "error" && !s && (
        <ErrorLine error={state.error} />
      )}
      {s && (
        <>
          <p className="mcp-status" data-running={s.boundPort > 0 || undefined} role="status" aria-label="MCP server status">
            {s.status}
          </p>
          <StaleClients
            settings={s}
            onRepaired={(snap) => {
              setCurrent(over(snap));
            }}
          />
          {SWITCHES.map((sw) => (
            <label key={sw.key} className="form-check">
              <input type="checkbox" checked={s[sw.key]} aria-busy={saving || undefined} onChange={(e) => void set(sw.key, String(e.target.checked))} />
              {sw.label}
            </label>
          ))}
          {!s.requireAuth && (
            // Issue 25, item 11: with no token required every caller is the anonymous one,
            // paired clients too: their tokens' rights no longer apply.
            <p className="form-msg form-msg--warn" role="note">
              No token is required: every AI client, paired ones included, is the anonymous caller, which only reads (their tokens are not
              checked, so the rights they were paired with do not apply). Turn Require a token on for paired clients to write.
            </p>
          )}
          <div className="mcp-numbers">
            {NUMBERS.map((n) => (
              <div key={n.key} className="form-row">
                <label className="form-row__label" htmlFor={`mcp-${n.key}`}>
                  {n.label}
                </label>
                <input
                  id={`mcp-${n.key}`}
                  inputMode="numeric"
                  value={drafts[n.key] ?? String(s[n.key])}
                  aria-describedby={`mcp-${n.key}-hint`}
                  onChange={(e) => setDrafts((d) => ({ ...d, [n.key]: e.target.value }))}
                  onBlur={() => drafts[n.key] !== undefined && void set(n.key, drafts[n.key] ?? "")}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" && drafts[n.key] !== undefined) void set(n.key, drafts[n.key] ?? "");
                  }}
                />
                <span className="form-row__hint" id={`mcp-${n.key}-hint`}>
                  {n.hint}
                </span>
              </div>
            ))}
          </div>
          {error && (
            <ErrorLine error={error} />
          )}
        </>
      )}
    </fieldset>
  );
}

/**
 * StaleClients is the notice of issue 25, item 10: the server fell back from a taken port, or
 * clients were set up with another port; it names each client that cannot reach the server
 * and re-pairs them all in one click (only the port in their config files changes).
 */
function StaleClients({ settings, onRepaired }: { settings: MCPSettings; onRepaired: (s: MCPSettings) => void }) {
  const api = useApi();
  const { run, busy, error } = useAction();
  const [result, setResult] = useState<RepairedClient[] | null>(null);
  const stale = settings.staleClients;
  if (!settings.portNotice && stale.length === 0 && !result && !error) return null;
  const repair = () =>
    run(
      () => api.settings.repairClients(),
      (r) => {
        setResult(r.repaired);
        onRepaired(r.settings);
      },
    );
  return (
    <div className="form-msg form-msg--warn mcp-stale" role="region" aria-label="Clients to re-pair">
      {settings.portNotice && <p>{settings.portNotice}</p>}
      {stale.length > 0 && (
        <>
          <p>
            {stale.length === 1 ? "This client points" : `These ${stale.length} clients point`} at another port and cannot reach App:
          </p>
          <ul>
            {stale.map((c) => (
              <li key={c.client}>
                <strong>{c.title}</strong> ({c.file}: {c.url})
              </li>
            ))}
          </ul>
          <button type="button" className="btn btn--primary" disabled={busy} aria-busy={busy || undefined} onClick={() => void repair()}>
            {busy ? "Re-pairing…" : stale.length === 1 ? `Re-pair ${stale[0].title}` : `Re-pair ${stale.length} clients`}
          </button>
        </>
      )}
      {result && (
        <ul aria-label="Re-paired clients">
          {result.map((r) => (
            <li key={r.file}>{r.error ? `${r.title}: not changed: ${r.error}` : `${r.title}: now points at port ${settings.boundPort} (backup ${r.backup})`}</li>
          ))}
        </ul>
      )}
      {error && (
        <ErrorLine error={error} />
      )}
    </div>
  );
}
