import type { Tab } from "./useWorkspace";
import { keyText } from "../../api/rowKey";
import { Icon, MapIcon, Search, SquareTerminal, Table2, X } from "../icons";
import "./workspace.css";

/** shortKey names a Find similar tab's row briefly: a one-column key's first 8 characters (a uuid's first group), else the key's text, cut. */
function shortKey(tab: Extract<Tab, { kind: "similar" }>): string {
  const text = keyText(tab.row, tab.keyColumns);
  if (tab.keyColumns.length <= 1) return text.slice(0, 8);
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
}

function title(tab: Tab) {
  switch (tab.kind) {
    case "settings":
      return "Settings";
    case "connection":
      return tab.connection.name;
    case "table":
      return tab.filters ? `${tab.table} · ${tab.chosen ?? 0} rows` : tab.table;
    case "editor":
      return `Query · ${tab.connection.name}`;
    case "new-connection":
      return "New connection";
    case "edit-connection":
      return `Edit ${tab.connection.name}`;
    case "similar":
      return `Similar · ${shortKey(tab)}`;
    case "search":
      return `Search · ${tab.table}`;
    case "map":
      return `Map · ${tab.table}`;
  }
}

function tooltip(tab: Tab) {
  if (tab.kind === "table") return tab.filters ? `Rows of ${tab.table} chosen on its map — ${tab.connection.name}` : `${tab.table} — ${tab.connection.name}`;
  if (tab.kind === "similar") return `Rows of ${tab.table} similar to ${keyText(tab.row, tab.keyColumns)}`;
  if (tab.kind === "search") return `Search ${tab.table} — ${tab.connection.name}`;
  if (tab.kind === "map") return `Map of ${tab.table} — ${tab.connection.name}`;
  return title(tab);
}

interface Props {
  tabs: Tab[];
  activeKey: string | null;
  onSelect: (key: string) => void;
  onClose: (key: string) => void;
  /** tab key -> rows with pending changes; such a tab shows a dot. */
  pending?: Record<string, number>;
}

/** TabBar lists the open tabs of the main area; each can be selected or closed. */
export function TabBar({ tabs, activeKey, onSelect, onClose, pending = {} }: Props) {
  if (tabs.length === 0) return null;
  return (
    <div className="tabbar" role="tablist" aria-label="Open tabs">
      {tabs.map((tab) => {
        const selected = tab.key === activeKey;
        return (
          <div key={tab.key} className="tab" data-selected={selected || undefined}>
            <button
              type="button"
              role="tab"
              aria-selected={selected}
              className="tab__label"
              data-kind={tab.kind}
              title={tooltip(tab)}
              onClick={() => onSelect(tab.key)}
            >
              {tab.kind === "editor" && (
                <span className="tab__icon" aria-hidden="true">
                  <Icon icon={SquareTerminal} />{" "}
                </span>
              )}
              {tab.kind === "table" && (
                <span className="tab__icon" aria-hidden="true">
                  <Icon icon={Table2} />{" "}
                </span>
              )}
              {tab.kind === "map" && (
                <span className="tab__icon" aria-hidden="true">
                  <Icon icon={MapIcon} />{" "}
                </span>
              )}
              {tab.kind === "search" && (
                <span className="tab__icon" aria-hidden="true">
                  <Icon icon={Search} />{" "}
                </span>
              )}
              {title(tab)}
              {(pending[tab.key] ?? 0) > 0 && (
                <span className="tab__dirty" title={`${pending[tab.key]} rows with pending changes`}>
                  {" "}●<span className="visually-hidden"> (pending changes)</span>
                </span>
              )}
            </button>
            <button
              type="button"
              className="tab__close"
              aria-label={`Close ${title(tab)}`}
              onClick={() => onClose(tab.key)}
            >
              <Icon icon={X} />
            </button>
          </div>
        );
      })}
    </div>
  );
}
