import { createContext, useContext } from "react";
import type { Connection, PluginProgress } from "../../api";
import type { ConnectionsState } from "../connections/useConnections";
import type { Opened } from "../opened/useOpened";
import type { Workspace } from "../workspace/useWorkspace";
import type { useTheme } from "../../theme/useTheme";

/**
 * AppModel is the window's state and the commands that span its parts, given once by App to
 * the sidebar and the workspace (issue 43, item 6: read where they are used, not handed down
 * through props). Each component below them still takes its own props.
 */
export interface AppModel {
  theme: ReturnType<typeof useTheme>;
  /** The saved connections, and reading them again. */
  connections: ConnectionsState;
  reload: () => void;
  /** The tabs. */
  ws: Workspace;
  /** Each opened connection's state (its tables, counts, capabilities). */
  opened: Opened;
  /** The plugin download a connection being opened waits for, by id. */
  installing: Record<string, PluginProgress>;
  /** Opening a connection connects it and opens its tab (then its last table). */
  openConnection: (c: Connection) => void;
  /** The query editor of a connection; it connects the connection when it is not open. */
  openEditor: (c: Connection) => void;
  duplicateConnection: (c: Connection) => void;
  /** Delete asks in the native dialog first; a "No" changes nothing. */
  deleteConnection: (c: Connection) => void;
  /** After a connection was saved: the form's tab closes, the connection opens (again). */
  onSaved: (tabKey: string, c: Connection) => void;
}

export const AppContext = createContext<AppModel | null>(null);

/** useAppModel is the window's model; only the parts App renders inside its provider call it. */
export function useAppModel(): AppModel {
  const m = useContext(AppContext);
  if (!m) throw new Error("useAppModel outside App's provider");
  return m;
}
