import type { Connection } from "../../api";
import { accessLabel } from "../connections/access";
import { address, typeLabel } from "../connections/format";
import { TypeBadge } from "../connections/TypeBadge";

/** ConnectionPanel is an open connection: its settings now; grid and query editor next. */
export function ConnectionPanel({ connection }: { connection: Connection }) {
  const rows: [string, string][] = [
    ["Type", typeLabel(connection.type)],
    ["Address", address(connection)],
    ["Auth Method", connection.authMethod || "None"],
    ["SSL Mode", connection.sslMode || "Disabled"],
    ["Skip TLS Verification", connection.skipTLSVerify ? "On" : "Off"],
    ["AI client access (MCP)", accessLabel(connection.externalAccess)],
  ];
  return (
    <section className="panel" aria-label={connection.name}>
      <header className="panel__head">
        <TypeBadge type={connection.type} />
        <h2 className="panel__title">{connection.name}</h2>
      </header>
      <dl className="props">
        {rows.map(([k, v]) => (
          <div key={k} className="props__row">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <p className="panel__note">Collections, the data grid and the query editor open here.</p>
    </section>
  );
}
