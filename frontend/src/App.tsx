import { useEffect } from "react";
import { useConnections } from "./components/connections/useConnections";
import { Header } from "./components/layout/Header";
import { Sidebar } from "./components/layout/Sidebar";
import { ThemeToggle } from "./components/layout/ThemeToggle";
import { useWorkspace } from "./components/workspace/useWorkspace";
import { Workspace } from "./components/workspace/Workspace";
import { useTheme } from "./theme/useTheme";

/** App is the window: header, connection sidebar, and the tabbed main area. */
export function App() {
  const theme = useTheme();
  const { state, reload } = useConnections();
  const ws = useWorkspace();

  // Ctrl+, (Cmd+, on macOS) opens Settings from anywhere.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === ",") {
        e.preventDefault();
        ws.openSettings();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [ws.openSettings]);

  const openId = ws.active?.kind === "connection" ? ws.active.connection.id : undefined;

  return (
    <div className="app">
      <Header actions={<ThemeToggle preference={theme.preference} onToggle={theme.cycle} />} />
      <div className="app__body">
        <Sidebar
          state={state}
          onReload={() => void reload()}
          onOpen={ws.openConnection}
          onOpenSettings={ws.openSettings}
          openId={openId}
          settingsOpen={ws.active?.kind === "settings"}
        />
        <Workspace
          tabs={ws.tabs}
          active={ws.active}
          onSelect={ws.setActiveKey}
          onClose={ws.close}
          hasConnections={state.status === "ready" && state.connections.length > 0}
          theme={theme.preference}
          onChooseTheme={theme.choose}
        />
      </div>
    </div>
  );
}
