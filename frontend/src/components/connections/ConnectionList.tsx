import { useEffect, useRef } from "react";
import type { Connection } from "../../api";
import { ConnectionItem } from "./ConnectionItem";
import { ConnectionListEmpty, ConnectionListError, ConnectionListLoading } from "./ConnectionListStates";
import type { ConnectionsState } from "./useConnections";
import { useListNavigation } from "./useListNavigation";

interface Props {
  state: ConnectionsState;
  onRetry: () => void;
  onOpen: (c: Connection) => void;
  openId?: string;
}

/** ConnectionList renders the loading, error, empty or filled list of saved connections. */
export function ConnectionList({ state, onRetry, onOpen, openId }: Props) {
  switch (state.status) {
    case "loading":
      return <ConnectionListLoading />;
    case "error":
      return <ConnectionListError error={state.error} onRetry={onRetry} />;
    case "ready":
      if (state.connections.length === 0) return <ConnectionListEmpty />;
      return <ConnectionListbox connections={state.connections} onOpen={onOpen} openId={openId} />;
  }
}

function optionId(c: Connection) {
  return `conn-${c.id}`;
}

/** ConnectionListbox is the keyboard-driven list: arrows move, Enter opens, click opens. */
function ConnectionListbox({
  connections,
  onOpen,
  openId,
}: {
  connections: Connection[];
  onOpen: (c: Connection) => void;
  openId?: string;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  const { active, setActive, onKeyDown } = useListNavigation(connections.length, (i) =>
    onOpen(connections[i]),
  );
  const activeConn = connections[Math.min(active, connections.length - 1)];

  // Keyboard-first: the list takes focus when it first appears, so arrows work at once.
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement === null) {
      listRef.current?.focus();
    }
  }, []);

  useEffect(() => {
    if (!activeConn) return;
    const el = document.getElementById(optionId(activeConn));
    el?.scrollIntoView?.({ block: "nearest" });
  }, [activeConn]);

  return (
    <ul
      ref={listRef}
      className="conn-list"
      role="listbox"
      aria-label="Saved connections"
      tabIndex={0}
      aria-activedescendant={activeConn ? optionId(activeConn) : undefined}
      onKeyDown={onKeyDown}
    >
      {connections.map((c, i) => (
        <ConnectionItem
          key={c.id}
          id={optionId(c)}
          connection={c}
          active={i === active}
          open={c.id === openId}
          onClick={() => {
            setActive(i);
            onOpen(c);
          }}
        />
      ))}
    </ul>
  );
}
