import type { Connection, PluginProgress } from "../../api";
import type { OpenedState } from "../opened/useOpened";
import { address, typeLabel, usesTLS } from "./format";
import { TypeBadge } from "./TypeBadge";
import { Icon, ChevronRight, Copy, Pencil, Trash2 } from "../icons";
import "./connections.css";

const STATUS_LABELS: Record<OpenedState["status"], string> = {
  connecting: "Connecting",
  ready: "Connected",
  error: "Could not connect",
  dropped: "Disconnected",
};

interface Props {
  connection: Connection;
  open: boolean;
  expanded: boolean;
  status?: OpenedState["status"];
  /** The plugin download this connection waits for while it opens. */
  installing?: PluginProgress;
  onClick: () => void;
  onToggle: () => void;
  onEdit?: () => void;
  onDuplicate?: () => void;
  onDelete?: () => void;
}

/** ConnectionItem is the row of one connection: chevron, badge, name, type, address, status. */
export function ConnectionItem({ connection, open, expanded, status, installing, onClick, onToggle, onEdit, onDuplicate, onDelete }: Props) {
  const tls = usesTLS(connection);
  return (
    <div
      className="conn-item"
      data-open={open || undefined}
      onClick={onClick}
      title={`${connection.name} — ${typeLabel(connection.type, connection.typeLabel)} at ${address(connection)}`}
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
        <Icon icon={ChevronRight} size={12} />
      </span>
      <TypeBadge type={connection.type} />
      <span className="conn-item__text">
        <span className="conn-item__name">{connection.name}</span>
        <span className="conn-item__meta">
          <span className="conn-item__type">{typeLabel(connection.type, connection.typeLabel)}</span>
          <span aria-hidden="true"> · </span>
          <span className="conn-item__addr">{address(connection)}</span>
          {tls && (
            <span className="conn-item__tls" title={`SSL: ${connection.sslMode}`}>
              TLS
            </span>
          )}
        </span>
        {installing && status === "connecting" && <InstallingLine p={installing} />}
      </span>
      <span className="conn-item__actions" onClick={(e) => e.stopPropagation()}>
        {onEdit && (
          <button type="button" className="icon-btn icon-btn--plain" tabIndex={-1} aria-label={`Edit ${connection.name}`} title="Edit (F2)" onClick={onEdit}>
            <Icon icon={Pencil} />
          </button>
        )}
        {onDuplicate && (
          <button type="button" className="icon-btn icon-btn--plain" tabIndex={-1} aria-label={`Duplicate ${connection.name}`} title="Duplicate" onClick={onDuplicate}>
            <Icon icon={Copy} />
          </button>
        )}
        {onDelete && (
          <button type="button" className="icon-btn icon-btn--plain" tabIndex={-1} aria-label={`Delete ${connection.name}`} title="Delete (Delete)" onClick={onDelete}>
            <Icon icon={Trash2} />
          </button>
        )}
      </span>
      {status && (
        <span className="status-dot" data-status={status} title={STATUS_LABELS[status]}>
          <span className="visually-hidden">{STATUS_LABELS[status]}</span>
        </span>
      )}
    </div>
  );
}

/** InstallingLine shows the download of the driver plugin a saved connection waits for. */
function InstallingLine({ p }: { p: PluginProgress }) {
  const pct = p.total > 0 ? Math.min(100, Math.round((p.done / p.total) * 100)) : 0;
  const label = `Installing the ${typeLabel(p.plugin)} driver`;
  return (
    <span className="conn-item__installing">
      <span>
        {label} {p.version}
        {p.fromMirror ? " from the app's own copy" : ""} · {pct}%
      </span>
      <span className="progress__track progress__track--thin" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <span className="progress__fill" style={{ width: `${pct}%` }} />
      </span>
    </span>
  );
}
