import type { Connection } from "../../api";
import type { ThemePreference } from "../../theme/theme";
import type { Explorer } from "../explorer/useExplorer";
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
  theme: ThemePreference;
  onChooseTheme: (p: ThemePreference) => void;
  explorer: Explorer;
  onOpenTable: (c: Connection, table: string) => void;
}

/** Workspace is the main area: a tab bar and the active tab's panel. */
export function Workspace({ tabs, active, onSelect, onClose, hasConnections, theme, onChooseTheme, explorer, onOpenTable }: Props) {
  return (
    <main className="workspace">
      <TabBar tabs={tabs} activeKey={active?.key ?? null} onSelect={onSelect} onClose={onClose} />
      <div className="workspace__body" role={active ? "tabpanel" : undefined}>
        {active === null && <WelcomePanel hasConnections={hasConnections} />}
        {active?.kind === "connection" && (
          <ConnectionPanel
            connection={active.connection}
            state={explorer.conns[active.connection.id]}
            onReconnect={() => void explorer.reconnect(active.connection.id)}
            onDisconnect={() => void explorer.disconnect(active.connection.id)}
            onOpenTable={(t) => onOpenTable(active.connection, t)}
          />
        )}
        {active?.kind === "table" && (
          <TablePanel
            key={active.key}
            connection={active.connection}
            table={active.table}
            count={tableCount(explorer, active.connection.id, active.table)}
          />
        )}
        {active?.kind === "settings" && <SettingsPanel preference={theme} onChoose={onChooseTheme} />}
      </div>
    </main>
  );
}

function tableCount(explorer: Explorer, connectionId: string, table: string): number | null | undefined {
  const st = explorer.conns[connectionId];
  return st?.status === "ready" ? st.counts?.[table]?.count : undefined;
}
