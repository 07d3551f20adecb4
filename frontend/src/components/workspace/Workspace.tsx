import { useEffect, useState } from "react";
import { parseApiError, useApi, type ApiError, type Connection, type ConnectionForm } from "../../api";
import type { ThemePreference } from "../../theme/theme";
import type { Explorer } from "../explorer/useExplorer";
import { EditorPanel } from "../editor/EditorPanel";
import { ConnectionFormPanel } from "../forms/ConnectionFormPanel";
import { NewConnectionPanel } from "../forms/NewConnectionPanel";
import { ConnectionPanel } from "./ConnectionPanel";
import { SettingsPanel } from "./SettingsPanel";
import { TabBar } from "./TabBar";
import { TablePanel } from "./TablePanel";
import type { Tab } from "./useWorkspace";
import { WelcomePanel } from "./WelcomePanel";

interface Props {
  tabs: Tab[];
  active: Tab | null;
  onSelect: (key: string) => void;
  onClose: (key: string) => void;
  hasConnections: boolean;
  connections: Connection[];
  theme: ThemePreference;
  onChooseTheme: (p: ThemePreference) => void;
  explorer: Explorer;
  onOpenTable: (c: Connection, table: string) => void;
  onOpenEditor: (c: Connection) => void;
  onNewConnection: () => void;
  onDuplicate: (c: Connection) => void;
  onDelete: (c: Connection) => void;
  /** onSaved closes the form tab whose key is given, after a connection was saved. */
  onSaved: (tabKey: string, c: Connection) => void;
}

/** Workspace is the main area: a tab bar and the active tab's panel. */
export function Workspace({
  tabs,
  active,
  onSelect,
  onClose,
  hasConnections,
  connections,
  theme,
  onChooseTheme,
  explorer,
  onOpenTable,
  onOpenEditor,
  onNewConnection,
  onDuplicate,
  onDelete,
  onSaved,
}: Props) {
  return (
    <main className="workspace">
      <TabBar tabs={tabs} activeKey={active?.key ?? null} onSelect={onSelect} onClose={onClose} />
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
            state={explorer.conns[active.connection.id]}
            onReconnect={() => void explorer.reconnect(active.connection.id)}
            onDisconnect={() => void explorer.disconnect(active.connection.id)}
            onOpenTable={(t) => onOpenTable(active.connection, t)}
            onOpenEditor={() => onOpenEditor(active.connection)}
          />
        )}
        {active?.kind === "editor" && (
          <EditorPanel key={active.key} connection={active.connection} ready={explorer.conns[active.connection.id]?.status === "ready"} />
        )}
        {active?.kind === "table" && (
          <TablePanel
            key={active.key}
            connection={active.connection}
            table={active.table}
            count={tableCount(explorer, active.connection.id, active.table)}
          />
        )}
        {active?.kind === "settings" && <SettingsPanel preference={theme} onChoose={onChooseTheme} connections={connections} />}
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
        <p className="form-msg form-msg--error" role="alert">
          {error.message}
        </p>
      </section>
    );
  if (!form) return <section className="panel" aria-label={`Edit ${connection.name}`} aria-busy="true" />;
  return <ConnectionFormPanel initial={form} onSaved={onSaved} onCancel={onCancel} onDuplicate={onDuplicate} onDelete={onDelete} />;
}

function tableCount(explorer: Explorer, connectionId: string, table: string): number | null | undefined {
  const st = explorer.conns[connectionId];
  return st?.status === "ready" ? st.counts?.[table]?.count : undefined;
}
