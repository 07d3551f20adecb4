import type { Connection } from "../../api";
import type { ExplorerConnState } from "../explorer/useExplorer";
import { address, typeLabel, usesTLS } from "./format";
import { TypeBadge } from "./TypeBadge";

const STATUS_LABELS: Record<ExplorerConnState["status"], string> = {
  connecting: "Connecting",
  ready: "Connected",
  error: "Could not connect",
  dropped: "Disconnected",
};

interface Props {
  connection: Connection;
  open: boolean;
  expanded: boolean;
  status?: ExplorerConnState["status"];
  onClick: () => void;
  onToggle: () => void;
}

/** ConnectionItem is the row of one connection: chevron, badge, name, type, address, status. */
export function ConnectionItem({ connection, open, expanded, status, onClick, onToggle }: Props) {
  const tls = usesTLS(connection);
  return (
    <div
      className="conn-item"
      data-open={open || undefined}
      onClick={onClick}
      title={`${connection.name} — ${typeLabel(connection.type)} at ${address(connection)}`}
    >
      <span
        className="tree-chevron"
        data-expanded={expanded || undefined}
        aria-hidden="true"
        onClick={(e) => {
          e.stopPropagation();
          onToggle();
        }}
      >
        ›
      </span>
      <TypeBadge type={connection.type} />
      <span className="conn-item__text">
        <span className="conn-item__name">{connection.name}</span>
        <span className="conn-item__meta">
          <span className="conn-item__type">{typeLabel(connection.type)}</span>
          <span aria-hidden="true"> · </span>
          <span className="conn-item__addr">{address(connection)}</span>
          {tls && (
            <span className="conn-item__tls" title={`SSL: ${connection.sslMode}`}>
              TLS
            </span>
          )}
        </span>
      </span>
      {status && (
        <span className="status-dot" data-status={status} title={STATUS_LABELS[status]}>
          <span className="visually-hidden">{STATUS_LABELS[status]}</span>
        </span>
      )}
    </div>
  );
}
