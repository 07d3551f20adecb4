import { useCallback, useEffect, useState } from "react";
import { parseApiError, useApi, type ApiError, type Plugin } from "../../api";
import { useLoaded } from "../../hooks";
import { PluginProgressBar, sizeText } from "../forms/PluginProgressBar";
import { ErrorLine } from "../frame/ErrorLine";
import "./settings.css";

/** What one plugin row is doing now. */
type Busy = { action: "install" | "update" | "uninstall"; done: number; total: number };

/**
 * PluginsSettings is Settings, Plugins (SPEC A.3): the registry's plugins with the
 * installed and available versions; install, update and uninstall; the download's progress;
 * and a failed operation's reason in words, beside the plugin it concerns.
 */
export function PluginsSettings() {
  const api = useApi();
  const { state, reload: load } = useLoaded(useCallback(() => api.plugins.list(), [api]));
  const [busy, setBusy] = useState<Record<string, Busy>>({});
  const [errors, setErrors] = useState<Record<string, ApiError>>({});

  useEffect(
    () =>
      api.plugins.onProgress((p) =>
        setBusy((b) => (b[p.plugin] && b[p.plugin].action !== "uninstall" ? { ...b, [p.plugin]: { ...b[p.plugin], done: p.done, total: p.total } } : b)),
      ),
    [api],
  );

  const run = async (p: Plugin, action: Busy["action"]) => {
    setBusy((b) => ({ ...b, [p.name]: { action, done: 0, total: p.size } }));
    setErrors(({ [p.name]: _, ...rest }) => rest);
    try {
      if (action === "install") await api.plugins.install(p.name);
      else if (action === "update") await api.plugins.update(p.name);
      else await api.plugins.uninstall(p.name);
    } catch (reason) {
      setErrors((e) => ({ ...e, [p.name]: parseApiError(reason) }));
    } finally {
      setBusy(({ [p.name]: _, ...rest }) => rest);
      await load();
    }
  };

  return (
    <fieldset className="field plugins" aria-label="Plugins">
      <legend>Plugins</legend>
      {state.status === "loading" && <p className="panel__note">Reading the plugin registry…</p>}
      {state.status === "error" && (
        <ErrorLine>
          {state.error.message}{" "}
          <button type="button" className="btn btn--small" onClick={() => void load()}>
            Retry
          </button>
        </ErrorLine>
      )}
      {state.status === "ready" && (
        <>
          {state.value.registryError && (
            <ErrorLine>
              The plugin registry could not be read, so only installed plugins are shown: {state.value.registryError}
            </ErrorLine>
          )}
          {state.value.plugins.length === 0 && <p className="panel__note">The registry lists no plugins.</p>}
          <ul className="plugin-list">
            {state.value.plugins.map((p) => {
              const b = busy[p.name];
              const err = errors[p.name];
              const title = p.displayName || p.name;
              return (
                <li key={p.name} className="plugin-row" aria-label={title}>
                  <div className="plugin-row__head">
                    <span className="plugin-row__name">{title}</span>
                    <span className="plugin-row__status" data-status={p.status}>
                      {p.status}
                    </span>
                  </div>
                  {p.description && <p className="plugin-row__desc">{p.description}</p>}
                  <p className="plugin-row__meta">
                    Installed: {p.installed || "—"} · Available: {p.available ? `${p.available} (${sizeText(p.size)})` : "—"} · Publisher:{" "}
                    {p.publisher || "—"}
                  </p>
                  {p.reason && <p className="plugin-row__desc">{p.reason}</p>}
                  {p.fromMirror && (
                    <p className="plugin-row__desc">
                      From the app&apos;s own copy of the registry: the online registry could not be reached (or this build names none).
                    </p>
                  )}
                  {b && b.action !== "uninstall" && <PluginProgressBar label={`Downloading ${title}`} done={b.done} total={b.total} />}
                  {b?.action === "uninstall" && <p className="panel__note">Uninstalling…</p>}
                  {err && (
                    <ErrorLine error={err} />
                  )}
                  <div className="form-actions">
                    {!p.installed && p.available && (
                      <button type="button" className="btn btn--primary" disabled={!!b} onClick={() => void run(p, "install")}>
                        Install {title}
                      </button>
                    )}
                    {p.installed && p.status === "update available" && (
                      <button type="button" className="btn btn--primary" disabled={!!b} onClick={() => void run(p, "update")}>
                        Update {title} to {p.available}
                      </button>
                    )}
                    {p.installed && (
                      <button type="button" className="btn" disabled={!!b} onClick={() => void run(p, "uninstall")}>
                        Uninstall {title}
                      </button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </fieldset>
  );
}
