import type { Connection } from "../../api";
import type { DropNotice } from "../opened/useOpened";
import { Icon, X } from "../icons";
import "./frame.css";

interface Props {
  notices: DropNotice[];
  connections: Connection[];
  onReconnect: (connectionId: string) => void;
  onDismiss: (key: number) => void;
}

/** DropNotices tells the user that a health check dropped a connection, and why. */
export function DropNotices({ notices, connections, onReconnect, onDismiss }: Props) {
  if (notices.length === 0) return null;
  const name = (id: string) => connections.find((c) => c.id === id)?.name ?? "A connection";
  return (
    <div className="notices">
      {notices.map((n) => (
        <div key={n.key} className="notice" role="alert">
          <div className="notice__text">
            <p className="notice__title">{name(n.connectionId)} was disconnected</p>
            <p className="notice__message">{n.error.message}</p>
          </div>
          <button type="button" className="btn btn--small" onClick={() => onReconnect(n.connectionId)}>
            Reconnect
          </button>
          <button
            type="button"
            className="tab__close"
            aria-label={`Dismiss the notice about ${name(n.connectionId)}`}
            onClick={() => onDismiss(n.key)}
          >
            <Icon icon={X} />
          </button>
        </div>
      ))}
    </div>
  );
}
