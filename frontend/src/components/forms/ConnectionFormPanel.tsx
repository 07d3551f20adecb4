import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import {
  parseApiError,
  useApi,
  type ApiError,
  type Connection,
  type ConnectionDescription,
  type ConnectionForm,
  type PathStatus,
  type SettingField,
} from "../../api";
import { typeLabel } from "../connections/format";
import { TypeBadge } from "../connections/TypeBadge";
import { AI_POLICIES, applies, EXTERNAL_ACCESS, fieldProblem, type FieldProblem, newConnectionForm, sections, suggestionFor } from "./formRules";
import { ErrorLine } from "../frame/ErrorLine";
import { useAction } from "../frame/useAction";
import "./forms.css";

type TestState =
  | { status: "idle" }
  | { status: "testing" }
  | { status: "ok"; serverVersion: string; paths: PathStatus[] }
  | { status: "failed"; error: ApiError };

interface Props {
  /** The form's starting values: a new connection (id "") or a saved one. */
  initial: ConnectionForm;
  /** The type's description; read from the backend when not given. */
  description?: ConnectionDescription;
  onSaved: (c: Connection) => void;
  onCancel: () => void;
  /** Shown when editing: duplicate or delete the saved connection (delete asks natively). */
  onDuplicate?: () => void;
  onDelete?: () => void;
}

/**
 * ConnectionFormPanel is the connection form: Name, then the fields the type's plugin
 * describes (its main group, then each named section such as Advanced, folded), then what AI
 * clients may do with it. Test connects with the values as they are; Save (Enter) stores
 * them. Secrets go to the backend only; a saved one is never shown and stays unless retyped.
 */
export function ConnectionFormPanel({ initial, description, ...rest }: Props) {
  const api = useApi();
  const [desc, setDesc] = useState<ConnectionDescription | null>(description ?? null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (description) return;
    let live = true;
    api.connections.describe(initial.type).then(
      (d) => live && setDesc(d),
      (reason) => live && setError(parseApiError(reason)),
    );
    return () => {
      live = false;
    };
  }, [api, initial.type, description]);
  if (!desc) {
    return (
      <section className="panel panel--form" aria-label={initial.id ? `Edit ${initial.name}` : "New connection"} aria-busy={!error}>
        {error ? <ErrorLine error={error} /> : <p className="panel__note">Reading the {typeLabel(initial.type)} driver's settings…</p>}
        <div className="form-actions">
          <button type="button" className="btn" onClick={rest.onCancel}>
            Cancel
          </button>
        </div>
      </section>
    );
  }
  return <DescribedForm initial={initial} desc={desc} {...rest} />;
}

function DescribedForm({ initial, desc, onSaved, onCancel, onDuplicate, onDelete }: Omit<Props, "description"> & { desc: ConnectionDescription }) {
  const api = useApi();
  // A saved connection lacks the fields its plugin added since: they start at their defaults.
  const [form, setForm] = useState<ConnectionForm>(() => ({ ...initial, values: { ...newConnectionForm(initial.type, desc).values, ...initial.values } }));
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  // A connection URL being typed: it fills the fields and is never saved itself.
  const [urlText, setUrlText] = useState("");
  // The named sections (Advanced) that are open: one holding a field with a problem opens.
  const [openSections, setOpenSections] = useState<Set<string>>(new Set());
  const [test, setTest] = useState<TestState>({ status: "idle" });
  const { run: runSave, busy: saving, error: problem, clear: clearProblem } = useAction();
  // A problem at one field: named there (aria-invalid, described by the message), and the
  // field takes the focus; what was typed stays (issue 25, item 12).
  const [atField, setAtField] = useState<FieldProblem | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const editing = initial.id !== "";
  const label = desc.types.find((t) => t.name === form.type)?.label ?? typeLabel(form.type);

  useEffect(() => nameRef.current?.focus(), []);
  // Bumped by every change to the values: a Test answering after a change describes values no
  // longer in the form, and is dropped.
  const testGen = useRef(0);

  const changed = () => {
    testGen.current++;
    setTest({ status: "idle" });
    clearProblem();
    setAtField(null);
  };
  const set = (patch: Partial<ConnectionForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    changed();
  };
  const setValues = (patch: Record<string, string>) => {
    setForm((f) => ({ ...f, values: { ...f.values, ...patch } }));
    changed();
  };
  const fieldId = (key: string) => `${id}-${key.replace(/\W+/g, "-")}`;
  /** refuse names the problem at its field, opens its section, and gives that field the focus. */
  const refuse = (p: FieldProblem) => {
    setAtField(p);
    const section = desc.settings.find((f) => f.key === p.field)?.section ?? "";
    if (section !== "" && !openSections.has(section)) {
      setOpenSections((o) => new Set(o).add(section));
      // The field renders inside the section once it is open.
      requestAnimationFrame(() => document.getElementById(fieldId(p.field))?.focus());
      return;
    }
    document.getElementById(fieldId(p.field))?.focus();
  };
  const suggestion = suggestionFor(desc, form.values);
  // A secret typed into a field that no longer applies (Auth Method switched back) is not
  // sent: it would be a secret sent for nothing, and the backend refuses it.
  const secretsToSend = () => {
    const out: Record<string, string> = {};
    for (const f of desc.settings) {
      if (f.kind === "secret" && applies(f, form.values) && secrets[f.key]) out[f.key] = secrets[f.key];
    }
    return out;
  };
  // Values of fields that do not apply are not sent either.
  const formToSend = (): ConnectionForm => {
    const values: Record<string, string> = {};
    for (const f of desc.settings) {
      const v = form.values[f.key];
      if (f.kind !== "secret" && v !== undefined && applies(f, form.values)) values[f.key] = v;
    }
    return { ...form, values };
  };

  /** fillFromURL fills the fields (and a password) from the URL, as the type's plugin reads it. */
  const fillFromURL = async () => {
    if (urlText.trim() === "") return;
    try {
      const got = await api.connections.fromURL(form.type, urlText);
      setForm((f) => ({ ...f, values: { ...f.values, ...got.values } }));
      if (Object.keys(got.secrets).length > 0) setSecrets((s) => ({ ...s, ...got.secrets }));
      changed();
      setUrlText("");
    } catch (reason) {
      const e = parseApiError(reason);
      refuse({ field: "url", message: e.message });
    }
  };

  const runTest = async () => {
    const p = fieldProblem(desc, form, secretsToSend(), false);
    if (p) return refuse(p);
    setTest({ status: "testing" });
    const gen = ++testGen.current;
    try {
      const r = await api.connections.test(formToSend(), secretsToSend());
      if (gen !== testGen.current) return;
      // A setting the person let the test change (asked natively: create the missing file) is the form's now.
      if (r.changed && Object.keys(r.changed).length > 0) setValues(r.changed);
      setTest({ status: "ok", serverVersion: r.serverVersion, paths: r.paths ?? [] });
    } catch (reason) {
      if (gen === testGen.current) setTest({ status: "failed", error: parseApiError(reason) });
    }
  };

  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    const p = fieldProblem(desc, form, secretsToSend(), true);
    if (p) return refuse(p);
    await runSave(() => api.connections.save(formToSend(), secretsToSend()), onSaved);
  };

  // A row: the label names the control; the hint describes it (aria-describedby), so the
  // control's accessible name is the label alone.
  const row = (key: string, labelText: string, control: (ids: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean }) => ReactNode, hint?: ReactNode) => {
    const cid = fieldId(key);
    const bad = atField?.field === key;
    const described = [bad ? `${cid}-error` : "", hint ? `${cid}-hint` : ""].filter(Boolean).join(" ");
    return (
      <div key={key} className={bad ? "form-row form-row--invalid" : "form-row"}>
        <label className="form-row__label" htmlFor={cid}>
          {labelText}
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

  const control = (f: SettingField) => {
    const value = form.values[f.key] ?? "";
    switch (f.kind) {
      case "bool":
        return (
          <div key={f.key} className="form-check-row">
            <label className="form-check">
              <input
                type="checkbox"
                name={f.key}
                checked={value === "true"}
                aria-describedby={f.help ? `${fieldId(f.key)}-hint` : undefined}
                onChange={(e) => setValues({ [f.key]: e.target.checked ? "true" : "false" })}
              />
              {f.label}
            </label>
            {f.help && (
              <span className="form-row__hint" id={`${fieldId(f.key)}-hint`}>
                {f.help}
              </span>
            )}
          </div>
        );
      case "enum":
        return row(
          f.key,
          f.label,
          (ids) => (
            <select {...ids} name={f.key} value={value} onChange={(e) => setValues({ [f.key]: e.target.value })}>
              {!f.required && !f.options.includes(value) && <option value="">—</option>}
              {f.options.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          ),
          f.optionHelp[value] || f.help || undefined,
        );
      case "secret":
        return row(
          f.key,
          f.label,
          (ids) => (
            <input
              {...ids}
              name={f.key}
              type="password"
              value={secrets[f.key] ?? ""}
              onChange={(e) => {
                setSecrets((s) => ({ ...s, [f.key]: e.target.value }));
                changed();
              }}
              autoComplete="off"
              placeholder={form.savedSecrets.includes(f.key) ? "Saved in the keyring; type a new one to replace it" : f.placeholder}
            />
          ),
          f.help || undefined,
        );
      case "path":
        return row(
          f.key,
          f.label,
          (ids) => (
            <span className="form-path">
              <input {...ids} name={f.key} value={value} onChange={(e) => setValues({ [f.key]: e.target.value })} spellCheck={false} placeholder={f.placeholder} />
              <button
                type="button"
                className="btn btn--small"
                aria-label={`Choose ${f.label}`}
                onClick={async () => {
                  try {
                    const p = await api.connections.chooseFile(f.label);
                    if (p) setValues({ [f.key]: p });
                  } catch {
                    // No dialog here (a browser): the path is typed instead.
                  }
                }}
              >
                Choose…
              </button>
            </span>
          ),
          f.help || undefined,
        );
      default:
        return row(
          f.key,
          f.label,
          (ids) => (
            <input
              {...ids}
              name={f.key}
              inputMode={f.kind === "int" ? "numeric" : undefined}
              value={value}
              onChange={(e) => setValues({ [f.key]: e.target.value })}
              autoComplete="off"
              spellCheck={false}
              placeholder={f.placeholder}
            />
          ),
          f.help || undefined,
        );
    }
  };

  const groups = sections(desc);
  const fieldsOf = (fields: SettingField[]) => fields.filter((f) => applies(f, form.values)).map(control);

  return (
    <section className="panel panel--form" aria-label={editing ? `Edit ${initial.name}` : "New connection"}>
      <header className="panel__head">
        <TypeBadge type={form.type} />
        <h2 className="panel__title">{editing ? `Edit ${initial.name}` : `New ${label} connection`}</h2>
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
        {row("name", "Name", (ids) => (
          <input {...ids} ref={nameRef} name="name" value={form.name} onChange={(e) => set({ name: e.target.value })} autoComplete="off" />
        ))}
        {desc.url &&
          row(
            "url",
            "Connection URL",
            (ids) => (
              <span className="form-path">
                <input
                  {...ids}
                  name="url"
                  value={urlText}
                  onChange={(e) => {
                    setUrlText(e.target.value);
                    if (atField?.field === "url") setAtField(null);
                  }}
                  onKeyDown={(e) => {
                    if (e.key === "Enter") {
                      e.preventDefault();
                      void fillFromURL();
                    }
                  }}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={desc.url?.example || `${desc.url?.schemes[0]}://…`}
                />
                <button type="button" className="btn btn--small" onClick={() => void fillFromURL()} disabled={urlText.trim() === ""}>
                  Fill
                </button>
              </span>
            ),
            "Fills the fields below; the URL itself is not saved, a password in it goes to the keyring",
          )}
        {groups.map((g) =>
          g.name === "" ? (
            <div key="main" className="form-fields">
              {fieldsOf(g.fields)}
              {suggestion && (
                <div className="form-suggest" role="status">
                  <span>{suggestion.text}</span>
                  <button type="button" className="btn btn--small" onClick={() => setValues(suggestion.set)}>
                    {suggestion.action}
                  </button>
                </div>
              )}
            </div>
          ) : (
            <details
              key={g.name}
              className="form-advanced"
              open={openSections.has(g.name)}
              onToggle={(e) => {
                const open = e.currentTarget.open;
                setOpenSections((o) => {
                  if (o.has(g.name) === open) return o;
                  const next = new Set(o);
                  if (open) next.add(g.name);
                  else next.delete(g.name);
                  return next;
                });
              }}
            >
              <summary>{g.name}</summary>
              {fieldsOf(g.fields)}
            </details>
          ),
        )}
        <fieldset className="field form-ai">
          <legend>AI clients (MCP)</legend>
          {row("externalAccess", "External access", (ids) => (
            <select {...ids} name="externalAccess" value={form.externalAccess} onChange={(e) => set({ externalAccess: e.target.value })}>
              {EXTERNAL_ACCESS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          ))}
          {row("aiPolicy", "AI policy", (ids) => (
            <select {...ids} name="aiPolicy" value={form.aiPolicy} onChange={(e) => set({ aiPolicy: e.target.value })}>
              {AI_POLICIES.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          ))}
        </fieldset>
        <div className="form-status" aria-live="polite" id={`${id}-status`}>
          <ErrorLine error={problem} />
          {test.status === "testing" && <p className="form-msg">Testing the connection…</p>}
          {test.status === "ok" && test.paths.length === 0 && (
            <p className="form-msg form-msg--ok">
              Connected{test.serverVersion ? `: ${label} ${test.serverVersion}` : ""}
            </p>
          )}
          {test.status === "ok" && test.paths.length > 0 && (
            <p className={`form-msg ${test.paths.every((p) => p.ok) ? "form-msg--ok" : "form-msg--error"}`} role="status">
              {pathsSummary(test.paths)}
            </p>
          )}
          {test.status === "failed" && <ErrorLine error={test.error} />}
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
