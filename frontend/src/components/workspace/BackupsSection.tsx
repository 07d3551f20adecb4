import { useCallback, useEffect, useRef, useState } from "react";
import { useApi, type Backup, type Backups } from "../../api";
import { parseApiError } from "../../api/errors";
import { formatCount } from "../opened/format";
import "./workspace.css";

/** How often a running backup or restore is asked for its phase. */
const POLL_MS = 1000;

type Load = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; data: Backups };

/** What the section is doing now: a backup or a restore it follows until it ends. */
type Job =
  | { kind: "idle" }
  | { kind: "backup" | "restore"; backup: Backup }
  | { kind: "done"; text: string; failed: boolean };

/** size in words ("" where the database gave none). */
function size(bytes: number): string {
  if (bytes <= 0) return "";
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return u === 0 ? `${formatCount(n)} bytes` : `${n.toFixed(1)} ${units[u]}`;
}

/**
 * BackupsSection is the connection page's backups (issue 40, item 5): where the database keeps
 * them, the backups there, a new backup of all or some tables followed to its end (with
 * Cancel), and a restore, which the backend puts to the person in a native dialog naming what
 * it creates and overwrites. The work runs in the database: the section asks for its phase.
 */
export function BackupsSection({ connectionId, tables, pollMs = POLL_MS }: { connectionId: string; tables: string[]; pollMs?: number }) {
  const api = useApi();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [chosen, setChosen] = useState<string[]>([]);
  const [job, setJob] = useState<Job>({ kind: "idle" });
  const [error, setError] = useState("");
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const read = useCallback(async () => {
    try {
      const data = await api.explorer.backups(connectionId, "");
      if (alive.current) setLoad({ status: "ready", data });
    } catch (e) {
      if (alive.current) setLoad({ status: "error", message: parseApiError(e).message });
    }
  }, [api, connectionId]);
  useEffect(() => {
    void read();
  }, [read]);

  const backend = load.status === "ready" ? (load.data.backends[0]?.name ?? "") : "";

  // Follow the running job: ask for its phase until it ends, then list the backups again.
  const runningId = job.kind === "backup" || job.kind === "restore" ? job.backup.id : "";
  const runningKind = job.kind === "backup" || job.kind === "restore" ? job.kind : "";
  useEffect(() => {
    if (!runningId || !runningKind) return;
    let stop = false;
    const tick = async () => {
      try {
        const b = runningKind === "backup" ? await api.explorer.backupStatus(connectionId, backend, runningId) : await api.explorer.restoreStatus(connectionId, backend, runningId);
        if (stop || !alive.current) return;
        if (b.state === "running") {
          setJob({ kind: runningKind, backup: b });
          timer = setTimeout(tick, pollMs);
          return;
        }
        const what = runningKind === "backup" ? `Backup ${b.id}` : `Restore of ${b.id}`;
        const text =
          b.state === "succeeded"
            ? `${what} finished${b.tables.length > 0 ? `: ${b.tables.join(", ")}` : ""}.`
            : `${what} ${b.state === "cancelled" ? "was cancelled" : "failed"}${b.error ? `: ${b.error}` : "."}`;
        setJob({ kind: "done", text, failed: b.state !== "succeeded" });
        void read();
      } catch (e) {
        if (!stop && alive.current) setJob({ kind: "done", text: parseApiError(e).message, failed: true });
      }
    };
    let timer = setTimeout(tick, pollMs);
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [api, connectionId, backend, runningId, runningKind, read, pollMs]);

  const start = async () => {
    setError("");
    try {
      const b = await api.explorer.createBackup(connectionId, backend, chosen);
      setJob({ kind: "backup", backup: b });
    } catch (e) {
      setError(parseApiError(e).message);
    }
  };
  const cancel = async (id: string) => {
    setError("");
    try {
      await api.explorer.cancelBackup(connectionId, backend, id);
    } catch (e) {
      setError(parseApiError(e).message);
    }
  };
  const restore = async (id: string) => {
    setError("");
    try {
      const r = await api.explorer.restoreBackup(connectionId, backend, id, []);
      if (r.declined || !r.restore) {
        setJob({ kind: "done", text: `Not restored: nothing was sent.`, failed: false });
        return;
      }
      setJob({ kind: "restore", backup: r.restore });
    } catch (e) {
      setError(parseApiError(e).message);
    }
  };

  const busy = job.kind === "backup" || job.kind === "restore";
  let body;
  switch (load.status) {
    case "loading":
      body = (
        <p role="status" className="panel__note">
          <span className="spinner" aria-hidden="true" /> Reading the backups…
        </p>
      );
      break;
    case "error":
      body = (
        <p role="alert" className="panel__note panel__note--error">
          Could not read the backups: {load.message}
        </p>
      );
      break;
    case "ready": {
      const place = load.data.backends[0];
      body = (
        <>
          <p className="panel__note">
            Kept on {place ? `${place.label}${place.where ? ` (${place.where})` : ""}` : "no backend: the database has none enabled"}.
          </p>
          {place && (
            <form
              className="backup-form"
              aria-label="New backup"
              onSubmit={(e) => {
                e.preventDefault();
                void start();
              }}
            >
              <fieldset className="backup-form__tables">
                <legend>Tables (none ticked: all)</legend>
                {tables.map((t) => (
                  <label key={t} className="search-form__check">
                    <input type="checkbox" checked={chosen.includes(t)} onChange={(e) => setChosen(e.target.checked ? [...chosen, t] : chosen.filter((c) => c !== t))} /> {t}
                  </label>
                ))}
              </fieldset>
              <button type="submit" className="btn btn--small btn--primary" disabled={busy}>
                Back up
              </button>
            </form>
          )}
          {busy && (
            <p role="status" aria-live="polite" className="panel__note">
              <span className="spinner" aria-hidden="true" /> {job.kind === "backup" ? "Backing up" : "Restoring"} {job.backup.id}: {job.backup.phase.toLowerCase()}…{" "}
              {job.kind === "backup" && (
                <button type="button" className="btn btn--small" onClick={() => void cancel(job.backup.id)}>
                  Cancel
                </button>
              )}
            </p>
          )}
          {job.kind === "done" && (
            <p role={job.failed ? "alert" : "status"} className={job.failed ? "panel__note panel__note--error" : "panel__note"}>
              {job.text}
            </p>
          )}
          {error && (
            <p role="alert" className="panel__note panel__note--error">
              {error}
            </p>
          )}
          {load.data.backups.length === 0 ? (
            <p className="panel__note">No backups yet.</p>
          ) : (
            <table className="nodes-table" aria-label="Backups">
              <thead>
                <tr>
                  <th scope="col">Backup</th>
                  <th scope="col">State</th>
                  <th scope="col">Tables</th>
                  <th scope="col">Started</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {load.data.backups.map((b) => (
                  <tr key={b.id}>
                    <th scope="row">{b.id}</th>
                    <td title={b.error || b.phase}>{b.state}</td>
                    <td>{b.tables.join(", ")}</td>
                    <td>{b.started.replace("T", " ").replace("Z", " UTC")}</td>
                    <td className="num">{size(b.bytes)}</td>
                    <td>
                      {b.state === "succeeded" && (
                        <button type="button" className="btn btn--small" disabled={busy} onClick={() => void restore(b.id)} aria-label={`Restore ${b.id}`}>
                          Restore…
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      );
      break;
    }
  }
  return (
    <section className="panel__section" aria-label="Backups">
      <div className="panel__section-head">
        <h3 className="panel__section-title">Backups</h3>
      </div>
      {body}
    </section>
  );
}
