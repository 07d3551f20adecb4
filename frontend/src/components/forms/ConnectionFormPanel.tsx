import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { parseApiError, useApi, type ApiError, type Connection, type ConnectionForm, type PathStatus } from "../../api";
import { typeLabel } from "../connections/format";
import { TypeBadge } from "../connections/TypeBadge";
import {
  AI_POLICIES,
  AUTH_METHODS,
  cloudSuggestion,
  EXTERNAL_ACCESS,
  fieldProblem,
  type FieldProblem,
  needsCA,
  portValue,
  SSL_MODES,
} from "./formRules";
import { ErrorLine } from "../layout/ErrorLine";
import { useAction } from "../layout/useAction";

type TestState =
  | { status: "idle" }
  | { status: "testing" }
  | { status: "ok"; serverVersion: string; paths: PathStatus[] }
  | { status: "failed"; error: ApiError };

interface Props {
  /** The form's starting values: a new connection (id "") or a saved one. */
  initial: ConnectionForm;
  onSaved: (c: Connection) => void;
  onCancel: () => void;
  /** Shown when editing: duplicate or delete the saved connection (delete asks natively). */
  onDuplicate?: () => void;
  onDelete?: () => void;
}

/**
 * ConnectionFormPanel is the connection form (SPEC A "Connection settings"): Name, Host,
 * Port, Auth Method, API Key, SSL Mode, and in Advanced Skip TLS Verification and the CA
 * file; then what AI clients may do with it. Test connects with the values as they are;
 * Save (Enter) stores them. There is no Database field and no SSH tab for this type.
 */
export function ConnectionFormPanel({ initial, onSaved, onCancel, onDuplicate, onDelete }: Props) {
  const api = useApi();
  const [form, setForm] = useState<ConnectionForm>(initial);
  const [apiKey, setApiKey] = useState("");
  const [test, setTest] = useState<TestState>({ status: "idle" });
  const { run: runSave, busy: saving, error: problem, clear: clearProblem } = useAction();
  // A problem at one field: named there (aria-invalid, described by the message), and the
  // field takes the focus; what was typed stays (issue 25, item 12).
  const [atField, setAtField] = useState<FieldProblem | null>(null);
  const [portText, setPortText] = useState(Number.isNaN(initial.port) ? "" : String(initial.port));
  const [grpcPortText, setGrpcPortText] = useState(initial.grpcPort ? String(initial.grpcPort) : "");
  const nameRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const editing = initial.id !== "";

  useEffect(() => nameRef.current?.focus(), []);
  // Bumped by every change to the values: a Test answering after a change describes values no
  // longer in the form, and is dropped.
  const testGen = useRef(0);

  const set = (patch: Partial<ConnectionForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    testGen.current++;
    setTest({ status: "idle" });
    clearProblem();
    setAtField(null);
  };
  const fieldId = (label: string) => `${id}-${label.replace(/\W+/g, "-")}`;
  /** refuse names the problem at its field and gives that field the focus. */
  const refuse = (p: FieldProblem) => {
    setAtField(p);
    document.getElementById(fieldId(p.field))?.focus();
  };
  const suggestion = cloudSuggestion(form);
  // A key typed before switching Auth Method to None is not sent: the backend refuses a key
  // without API Key auth, and it would be a secret sent for nothing.
  const keyToSend = form.authMethod === "API Key" ? apiKey : "";

  const runTest = async () => {
    const p = fieldProblem(form, keyToSend, false);
    if (p) return refuse(p);
    setTest({ status: "testing" });
    const gen = ++testGen.current;
    try {
      const r = await api.connections.test(form, keyToSend);
      if (gen === testGen.current) setTest({ status: "ok", serverVersion: r.serverVersion, paths: r.paths ?? [] });
    } catch (reason) {
      if (gen === testGen.current) setTest({ status: "failed", error: parseApiError(reason) });
    }
  };

  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    const p = fieldProblem(form, keyToSend, true);
    if (p) return refuse(p);
    await runSave(() => api.connections.save(form, keyToSend), onSaved);
  };

  // A row: the label names the control; the hint describes it (aria-describedby), so the
  // control's accessible name is the label alone.
  const field = (label: string, control: (ids: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean }) => ReactNode, hint?: ReactNode) => {
    const cid = fieldId(label);
    const bad = atField?.field === label;
    const described = [bad ? `${cid}-error` : "", hint ? `${cid}-hint` : ""].filter(Boolean).join(" ");
    return (
      <div className={bad ? "form-row form-row--invalid" : "form-row"}>
        <label className="form-row__label" htmlFor={cid}>
          {label}
        </label>
        {control({ id: cid, "aria-describedby": described || undefined, "aria-invalid": bad || undefined })}
        {bad && (
          <span className="form-row__error" id={`${cid}-error`} role="alert">
            {atField.message}
          </span>
        )}
        {hint && (
          <span className="form-row__hint" id={`${cid}-hint`}>
            {hint}
          </span>
        )}
      </div>
    );
  };

  return (
    <section className="panel panel--form" aria-label={editing ? `Edit ${initial.name}` : "New connection"}>
      <header className="panel__head">
        <TypeBadge type={form.type} />
        <h2 className="panel__title">{editing ? `Edit ${initial.name}` : `New ${typeLabel(form.type)} connection`}</h2>
      </header>
      <form
        className="conn-form"
        onSubmit={save}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            onCancel();
          }
        }}
        noValidate
      >
        {field(
          "Name",
          (ids) => <input {...ids} ref={nameRef} name="name" value={form.name} onChange={(e) => set({ name: e.target.value })} autoComplete="off" />,
        )}
        <div className="form-pair">
          {field(
            "Host",
            (ids) => <input {...ids}
              name="host"
              value={form.host}
              onChange={(e) => set({ host: e.target.value })}
              autoComplete="off"
              spellCheck={false}
            />,
          )}
          {field(
            "Port",
            (ids) => <input {...ids}
              name="port"
              inputMode="numeric"
              value={portText}
              onChange={(e) => {
                setPortText(e.target.value);
                set({ port: portValue(e.target.value, Number.NaN) });
              }}
            />,
            "8080 for a local node; the hosted cloud answers on 443",
          )}
        </div>
        {suggestion && (
          <div className="form-suggest" role="status">
            <span>This is a Weaviate Cloud cluster: it answers on port 443 over HTTPS and needs an API key.</span>
            <button
              type="button"
              className="btn btn--small"
              onClick={() => {
                if (suggestion.port !== undefined) setPortText(String(suggestion.port));
                set(suggestion);
              }}
            >
              Use port 443, SSL Required and API Key
            </button>
          </div>
        )}
        {field(
          "Auth Method",
          (ids) => <select {...ids} name="authMethod" value={form.authMethod} onChange={(e) => set({ authMethod: e.target.value })}>
            {AUTH_METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>,
        )}
        {form.authMethod === "API Key" &&
          field(
            "API Key",
            (ids) => <input {...ids}
              name="apiKey"
              type="password"
              value={apiKey}
              onChange={(e) => {
                setApiKey(e.target.value);
                testGen.current++;
                setTest({ status: "idle" });
                clearProblem();
              }}
              autoComplete="off"
              placeholder={form.hasAPIKey ? "Saved in the keyring; type a new key to replace it" : ""}
            />,
            "Stored in the system keyring, never in a file, and never shown again",
          )}
        {field(
          "SSL Mode",
          (ids) => <select {...ids} name="sslMode" value={form.sslMode} onChange={(e) => set({ sslMode: e.target.value })}>
            {SSL_MODES.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>,
          form.sslMode === "Disabled" ? "Plain HTTP" : "HTTPS",
        )}
        <details className="form-advanced">
          <summary>Advanced</summary>
          <label className="form-check">
            <input
              type="checkbox"
              name="skipTLSVerify"
              checked={form.skipTLSVerify}
              onChange={(e) => set({ skipTLSVerify: e.target.checked })}
            />
            Skip TLS Verification (trust any certificate, even with Verify CA or Verify Identity)
          </label>
          {needsCA(form.sslMode) &&
            field(
              "CA file",
              (ids) => <input {...ids} name="caFile" value={form.caFile} onChange={(e) => set({ caFile: e.target.value })} spellCheck={false} />,
              "PEM file of the CA that signed the server's certificate; empty uses the system's",
            )}
          {field(
            "gRPC host",
            (ids) => <input {...ids} name="grpcHost" value={form.grpcHost} onChange={(e) => set({ grpcHost: e.target.value })} spellCheck={false} placeholder={form.host} />,
            "Where the driver reads when the server has GraphQL off; empty uses the host (grpc-<host> on a hosted cluster)",
          )}
          {field(
            "gRPC port",
            (ids) => <input {...ids}
              name="grpcPort"
              inputMode="numeric"
              value={grpcPortText}
              onChange={(e) => {
                setGrpcPortText(e.target.value);
                set({ grpcPort: portValue(e.target.value, 0) });
              }}
              placeholder="50051"
            />,
            "Empty: 50051, or 443 on a hosted cluster",
          )}
        </details>
        <fieldset className="field form-ai">
          <legend>AI clients (MCP)</legend>
          {field(
            "External access",
            (ids) => <select {...ids} name="externalAccess" value={form.externalAccess} onChange={(e) => set({ externalAccess: e.target.value })}>
              {EXTERNAL_ACCESS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>,
          )}
          {field(
            "AI policy",
            (ids) => <select {...ids} name="aiPolicy" value={form.aiPolicy} onChange={(e) => set({ aiPolicy: e.target.value })}>
              {AI_POLICIES.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>,
          )}
        </fieldset>
        <div className="form-status" aria-live="polite" id={`${id}-status`}>
          <ErrorLine error={problem} />
          {test.status === "testing" && <p className="form-msg">Testing the connection…</p>}
          {test.status === "ok" && test.paths.length === 0 && (
            <p className="form-msg form-msg--ok">
              Connected{test.serverVersion ? `: Weaviate ${test.serverVersion}` : ""}
            </p>
          )}
          {test.status === "ok" && test.paths.length > 0 && (
            <p className={`form-msg ${test.paths.every((p) => p.ok) ? "form-msg--ok" : "form-msg--error"}`} role="status">
              {pathsSummary(test.paths)}
            </p>
          )}
          {test.status === "failed" && (
            <ErrorLine error={test.error} />
          )}
        </div>
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => void runTest()} disabled={test.status === "testing"}>
            Test
          </button>
          {editing && onDuplicate && (
            <button type="button" className="btn" onClick={onDuplicate}>
              Duplicate
            </button>
          )}
          {editing && onDelete && (
            <button type="button" className="btn btn--danger" onClick={onDelete}>
              Delete
            </button>
          )}
          <span className="panel__spacer" />
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={saving}>
            {saving ? "Saving…" : "Save"}
          </button>
        </div>
      </form>
    </section>
  );
}

/** pathsSummary is a Test in one line: "REST ok, server 1.35.2; GraphQL on; gRPC ok", or the reason a path failed. */
export function pathsSummary(paths: PathStatus[]): string {
  return paths.map((p) => (p.ok ? `${p.name} ${p.detail}` : `${p.name}: ${p.detail}`)).join("; ");
}
