import { useCallback, useEffect, useState } from "react";
import { useApi, type HistoryEntry, type SavedQuery } from "../../api";
import { Icon, Check, X } from "../icons";
import { ErrorLine } from "../frame/ErrorLine";
import { useAction } from "../frame/useAction";
import "./editor.css";

/** HistoryList is the connection's run history, searchable, newest first; a click puts a statement back in the editor. */
export function HistoryList({ connectionId, onPick, refresh }: { connectionId: string; onPick: (t: string) => void; refresh: unknown }) {
  const api = useApi();
  const [search, setSearch] = useState("");
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  useEffect(() => {
    let live = true;
    api.editor.history(connectionId, search).then(
      (e) => live && setEntries(e),
      () => live && setEntries([]),
    );
    return () => {
      live = false;
    };
  }, [api, connectionId, search, refresh]);
  return (
    <aside className="editor-side" aria-label="History">
      <input className="input input--small" type="search" placeholder="Search history" aria-label="Search history" value={search} onChange={(e) => setSearch(e.target.value)} />
      {entries.length === 0 && <p className="panel__note">{search ? "Nothing matches." : "No history yet."}</p>}
      <ul className="editor-side__list">
        {entries.map((e, i) => (
          <li key={`${e.at}-${i}`}>
            <button type="button" className="editor-side__item" title={e.error || e.at} onClick={() => onPick(e.text)}>
              <span className={e.ok ? "editor-side__ok" : "editor-side__failed"} aria-label={e.ok ? "ran" : "failed"}>
                <Icon icon={e.ok ? Check : X} size={12} />
              </span>{" "}
              <code>{e.text}</code>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}

/** SavedList is the connection's saved queries: save the statement under the cursor by name, insert or delete one. */
export function SavedList({ connectionId, onPick, current }: { connectionId: string; onPick: (t: string) => void; current: () => string }) {
  const api = useApi();
  const [saved, setSaved] = useState<SavedQuery[]>([]);
  const [name, setName] = useState("");
  const { run, error } = useAction();
  const reload = useCallback(() => {
    api.editor.savedQueries(connectionId).then(setSaved, () => setSaved([]));
  }, [api, connectionId]);
  useEffect(reload, [reload]);
  const save = () =>
    run(
      () => api.editor.saveQuery(connectionId, name, current()),
      () => {
        setName("");
        reload();
      },
    );
  return (
    <aside className="editor-side" aria-label="Saved queries">
      <form
        className="editor-side__save"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <input className="input input--small" placeholder="Name" aria-label="Saved query name" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="btn btn--small">
          Save current
        </button>
      </form>
      <ErrorLine error={error} />
      {saved.length === 0 && <p className="panel__note">No saved queries.</p>}
      <ul className="editor-side__list">
        {saved.map((q) => (
          <li key={q.name} className="editor-side__saved">
            <button type="button" className="editor-side__item" title={q.text} onClick={() => onPick(q.text)}>
              {q.name}
            </button>
            <button
              type="button"
              className="btn btn--small"
              aria-label={`Delete saved query ${q.name}`}
              onClick={() => void api.editor.deleteSavedQuery(connectionId, q.name).then(reload)}
            >
              <Icon icon={X} />
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
