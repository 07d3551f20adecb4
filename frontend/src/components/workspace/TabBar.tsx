import type { Tab } from "./useWorkspace";

function title(tab: Tab) {
  switch (tab.kind) {
    case "settings":
      return "Settings";
    case "connection":
      return tab.connection.name;
    case "table":
      return tab.table;
    case "editor":
      return `Query · ${tab.connection.name}`;
    case "new-connection":
      return "New connection";
    case "edit-connection":
      return `Edit ${tab.connection.name}`;
  }
}

function tooltip(tab: Tab) {
  return tab.kind === "table" ? `${tab.table} — ${tab.connection.name}` : title(tab);
}

interface Props {
  tabs: Tab[];
  activeKey: string | null;
  onSelect: (key: string) => void;
  onClose: (key: string) => void;
}

/** TabBar lists the open tabs of the main area; each can be selected or closed. */
export function TabBar({ tabs, activeKey, onSelect, onClose }: Props) {
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
                  ⌨{" "}
                </span>
              )}
              {tab.kind === "table" && (
                <span className="tab__icon" aria-hidden="true">
                  ▦{" "}
                </span>
              )}
              {title(tab)}
            </button>
            <button
              type="button"
              className="tab__close"
              aria-label={`Close ${title(tab)}`}
              onClick={() => onClose(tab.key)}
            >
              ×
            </button>
          </div>
        );
      })}
    </div>
  );
}
