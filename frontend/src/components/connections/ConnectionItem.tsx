import type { Connection } from "../../api";
import { address, typeLabel, usesTLS } from "./format";
import { TypeBadge } from "./TypeBadge";

interface Props {
  id: string;
  connection: Connection;
  active: boolean;
  open: boolean;
  onClick: () => void;
}

/** ConnectionItem is one row of the connection list: badge, name, type and address. */
export function ConnectionItem({ id, connection, active, open, onClick }: Props) {
  const tls = usesTLS(connection);
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      data-open={open || undefined}
      className="conn-item"
      onClick={onClick}
      title={`${connection.name} — ${typeLabel(connection.type)} at ${address(connection)}`}
    >
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
    </li>
  );
}
