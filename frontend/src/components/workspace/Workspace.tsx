import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { parseApiError, useApi, type ApiError, type Connection, type ConnectionForm } from "../../api";
import type { Opened } from "../opened/useOpened";
import { ConnectionFormPanel } from "../forms/ConnectionFormPanel";
import { NewConnectionPanel } from "../forms/NewConnectionPanel";
import { ConnectionPanel } from "./ConnectionPanel";
import { SettingsPanel } from "../settings/SettingsPanel";
import { SearchPanel } from "../search/SearchPanel";
import { SimilarPanel } from "./SimilarPanel";
import { TabBar } from "./TabBar";
import { TablePanel } from "../grid/TablePanel";
import type { Tab } from "./useWorkspace";
import { WelcomePanel } from "./WelcomePanel";
import { ErrorLine } from "../frame/ErrorLine";
import { useAppModel } from "../frame/appModel";
import "./workspace.css";

// The query editor (CodeMirror and the drivers' languages) and the map (regl-scatterplot) are
// over half of the page's script: they are their own chunks, loaded when first opened and in
// the background once the window has painted, so that the first paint of the connection list
// parses less (issue 42, target 4: cold start).
const loadEditor = () => import("../editor/EditorPanel");
const loadMap = () => import("../map/MapPanel");
const EditorPanel = lazy(() => loadEditor().then((m) => ({ default: m.EditorPanel })));
const MapPanel = lazy(() => loadMap().then((m) => ({ default: m.MapPanel })));
const preloadAfter = 1500; // ms after the workspace first painted

/** Workspace is the main area: a tab bar and the active tab's panel. */
export function Workspace() {
  const app = useAppModel();
  const { ws, opened } = app;
  const { tabs, active, settingsSection } = ws;
  const onSelect = ws.setActiveKey;
  const onClose = ws.close;
  const connections = app.connections.status === "ready" ? app.connections.connections : [];
  const hasConnections = connections.length > 0;
  const theme = app.theme.preference;
  const onChooseTheme = app.theme.choose;
  const onSettingsSection = ws.setSettingsSection;
  const onOpenTable = ws.openTable;
  const onOpenEditor = app.openEditor;
  const onNewConnection = ws.openNewConnection;
  const onDuplicate = app.duplicateConnection;
  const onDelete = app.deleteConnection;
  const onSaved = app.onSaved;
  const onFindSimilar = ws.openSimilar;
  const onSearch = ws.openSearch;
  const onMap = ws.openMap;
  const onOpenRows = ws.openRows;
  // Rows with pending changes per table tab: such a tab asks before it closes.
  const [pending, setPending] = useState<Record<string, number>>({});
  const [closing, setClosing] = useState<string | null>(null);
  // Table tabs whose rows are on screen: the window title names the table once they are.
  const [ready, setReady] = useState<Record<string, boolean>>({});
  const reportReady = useCallback((key: string, r: boolean) => setReady((p) => (p[key] === r ? p : { ...p, [key]: r })), []);
  const api = useApi();
  useEffect(() => {
    const t = setTimeout(() => {
      void loadEditor();
      void loadMap();
    }, preloadAfter);
    return () => clearTimeout(t);
  }, []);
  const title = windowTitle(active, ready, pending, opened);
  useEffect(() => api.setWindowTitle(title), [api, title]);
  // Tabs closed any way (a deleted connection closes all of its tabs) leave these maps.
  const open = tabs.map((t) => t.key).join("\n");
  useEffect(() => {
    const keys = new Set(open.split("\n"));
    const prune = <T,>(m: Record<string, T>) => (Object.keys(m).every((k) => keys.has(k)) ? m : Object.fromEntries(Object.entries(m).filter(([k]) => keys.has(k))));
    setPending(prune);
    setReady(prune);
  }, [open]);
  // Quitting asks while any tab holds changes not yet written (the backend's OnBeforeClose).
  const unwritten = Object.values(pending).reduce((n, k) => n + k, 0);
  useEffect(() => {
    void api.explorer.setPendingChanges(unwritten).catch(() => {});
  }, [api, unwritten]);
  const reportPending = useCallback((key: string, rows: number) => setPending((p) => (p[key] === rows ? p : { ...p, [key]: rows })), []);
  const requestClose = (key: string) => {
    if ((pending[key] ?? 0) > 0) setClosing(key);
    else onClose(key);
  };
  const closingTab = closing ? tabs.find((t) => t.key === closing) : undefined;
  // Table and editor tabs stay mounted while hidden, so pending edits, filters, the editor's
  // text and scroll positions survive switching tabs.
  const kept = tabs.filter((t) => t.kind === "table" || t.kind === "editor" || t.kind === "search" || t.kind === "map");
  return (
    <main className="workspace">
      <TabBar tabs={tabs} activeKey={active?.key ?? null} onSelect={onSelect} onClose={requestClose} pending={pending} />
      {closingTab && closingTab.kind === "table" && (
        <div className="discard-confirm" role="alertdialog" aria-label={`Discard the pending changes of ${closingTab.table}?`}>
          <p>
            {closingTab.table} has {pending[closingTab.key] === 1 ? "1 row" : `${pending[closingTab.key]} rows`} with changes not yet written. Close the tab and discard them?
          </p>
          <button
            type="button"
            className="btn btn--small btn--danger"
            onClick={() => {
              setClosing(null);
              setPending((p) => ({ ...p, [closingTab.key]: 0 }));
              onClose(closingTab.key);
            }}
          >
            Discard and close
          </button>
          <button type="button" className="btn btn--small" autoFocus onClick={() => setClosing(null)}>
            Keep editing
          </button>
        </div>
      )}
      <div className="workspace__body" role={active ? "tabpanel" : undefined}>
        {active === null && <WelcomePanel hasConnections={hasConnections} onNewConnection={onNewConnection} />}
        {active?.kind === "new-connection" && (
          <NewConnectionPanel onSaved={(c) => onSaved(active.key, c)} onCancel={() => onClose(active.key)} />
        )}
        {active?.kind === "edit-connection" && (
          <EditConnection
            key={active.key}
            connection={active.connection}
            onSaved={(c) => onSaved(active.key, c)}
            onCancel={() => onClose(active.key)}
            onDuplicate={() => onDuplicate(active.connection)}
            onDelete={() => onDelete(active.connection)}
          />
        )}
        {active?.kind === "connection" && (
          <ConnectionPanel
            connection={active.connection}
            state={opened.conns[active.connection.id]}
            onReconnect={() => void opened.reconnect(active.connection.id)}
            onDisconnect={() => void opened.disconnect(active.connection.id)}
            onOpenTable={(t) => onOpenTable(active.connection, t)}
            onOpenEditor={() => onOpenEditor(active.connection)}
          />
        )}
        {kept.map((t) => (
          <div key={t.key} className="workspace__kept" hidden={t.key !== active?.key}>
            {t.kind === "search" && (
              <SearchPanel
                connection={t.connection}
                table={t.table}
                filters={t.filters}
                wordsNeedUpdate={capabilitiesOf(opened, t.connection.id)?.searchModes === false}
                onShowOnMap={(h) => onMap(t.connection, t.table, h.filters ?? [], h)}
              />
            )}
            {t.kind === "map" && (
              <Suspense fallback={null}>
                <MapPanel
                  connection={t.connection}
                  table={t.table}
                  filters={t.filters}
                  highlight={t.highlight}
                  onOpenRows={(keys, keyColumns) => onOpenRows(t.connection, t.table, keys, keyColumns)}
                  onFindSimilar={(row, keyColumns, target) => onFindSimilar(t.connection, t.table, row, keyColumns, target)}
                />
              </Suspense>
            )}
            {t.kind === "editor" && (
              <Suspense fallback={null}>
                <EditorPanel
                  connection={t.connection}
                  ready={opened.conns[t.connection.id]?.status === "ready"}
                  language={capabilitiesOf(opened, t.connection.id)?.queryLanguage}
                />
              </Suspense>
            )}
            {t.kind === "table" && (
              <TablePanel
                connection={t.connection}
                table={t.table}
                count={tableCount(opened, t.connection.id, t.table)}
                onFindSimilar={(row, keyColumns, target) => onFindSimilar(t.connection, t.table, row, keyColumns, target)}
                onSearch={(filters) => onSearch(t.connection, t.table, filters)}
                onMap={(filters) => onMap(t.connection, t.table, filters)}
                initialFilters={t.filters}
                onPending={(rows) => reportPending(t.key, rows)}
                onReady={(r) => reportReady(t.key, r)}
                onRowsChanged={() => void opened.refresh(t.connection.id)}
                maxResults={capabilitiesOf(opened, t.connection.id)?.maxResults}
              />
            )}
          </div>
        ))}
        {active?.kind === "similar" && (
          <SimilarPanel
            key={active.key}
            connection={active.connection}
            table={active.table}
            row={active.row}
            keyColumns={active.keyColumns}
            targetVector={active.targetVector}
            onShowOnMap={(h) => onMap(active.connection, active.table, [], h)}
          />
        )}
        {active?.kind === "settings" && (
          <SettingsPanel preference={theme} onChoose={onChooseTheme} connections={connections} section={settingsSection} onSection={onSettingsSection} />
        )}
      </div>
    </main>
  );
}

/** EditConnection loads a saved connection into the form (never its API key). */
function EditConnection({
  connection,
  onSaved,
  onCancel,
  onDuplicate,
  onDelete,
}: {
  connection: Connection;
  onSaved: (c: Connection) => void;
  onCancel: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
}) {
  const api = useApi();
  const [form, setForm] = useState<ConnectionForm | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    let live = true;
    api.connections.get(connection.id).then(
      (f) => live && setForm(f),
      (reason) => live && setError(parseApiError(reason)),
    );
    return () => {
      live = false;
    };
  }, [api, connection.id]);
  if (error)
    return (
      <section className="panel" aria-label={`Edit ${connection.name}`}>
        <ErrorLine error={error} />
      </section>
    );
  if (!form) return <section className="panel" aria-label={`Edit ${connection.name}`} aria-busy="true" />;
  return <ConnectionFormPanel initial={form} onSaved={onSaved} onCancel={onCancel} onDuplicate={onDuplicate} onDelete={onDelete} />;
}

/**
 * windowTitle names the window after what is on screen once it has loaded: a table once its
 * rows are read ("Paper — App", with "●" while it has changes not yet written, like an
 * editor's unsaved marker), a connection once it is open and its tables listed.
 */
export function windowTitle(active: Tab | null, ready: Record<string, boolean>, pending: Record<string, number>, opened: Opened): string {
  if (active?.kind === "table" && ready[active.key]) return `${(pending[active.key] ?? 0) > 0 ? "● " : ""}${active.table} — App`;
  if (active?.kind === "connection" && opened.conns[active.connection.id]?.status === "ready") return `${active.connection.name} — App`;
  return "App";
}

function tableCount(opened: Opened, connectionId: string, table: string): number | null | undefined {
  const st = opened.conns[connectionId];
  return st?.status === "ready" ? st.counts?.[table]?.count : undefined;
}

/** capabilitiesOf is what an open connection's driver offers; undefined until it is ready. */
function capabilitiesOf(opened: Opened, id: string) {
  const s = opened.conns[id];
  return s?.status === "ready" ? s.capabilities : undefined;
}
