import type { Capabilities, Connection } from "../../api";
import { accessLabel } from "../connections/access";
import { address, typeLabel } from "../connections/format";
import { TypeBadge } from "../connections/TypeBadge";
import { formatCount } from "../opened/format";
import type { OpenedState } from "../opened/useOpened";
import { Icon, Table2 } from "../icons";
import { ClusterNodes } from "./ClusterNodes";
import { BackupsSection } from "./BackupsSection";
import { AccessSection } from "./AccessSection";
import "./workspace.css";

interface Props {
  connection: Connection;
  state?: OpenedState;
  onReconnect: () => void;
  onDisconnect: () => void;
  onOpenTable: (table: string) => void;
  onOpenEditor?: () => void;
}

/** ConnectionPanel is an open connection: its state, its tables and its settings. */
export function ConnectionPanel({ connection, state, onReconnect, onDisconnect, onOpenTable, onOpenEditor }: Props) {
  // The settings are the ones its driver describes (never a secret's value), by their labels.
  const rows: [string, string][] = [
    ["Type", typeLabel(connection.type, connection.typeLabel)],
    ["Address", address(connection)],
    ...(connection.settings ?? []).map((r): [string, string] => [r.label, r.value]),
    ["AI client access (MCP)", accessLabel(connection.externalAccess)],
  ];
  return (
    <section className="panel" aria-label={connection.name}>
      <header className="panel__head">
        <TypeBadge type={connection.type} />
        <h2 className="panel__title">{connection.name}</h2>
        <span className="panel__spacer" />
        {state?.status === "ready" && onOpenEditor && (
          <button type="button" className="btn btn--small" title="Open the query editor (Ctrl+E)" onClick={onOpenEditor}>
            Query editor
          </button>
        )}
        {state?.status === "ready" ? (
          <button type="button" className="btn btn--small" onClick={onDisconnect}>
            Disconnect
          </button>
        ) : (
          state?.status !== "connecting" && (
            <button type="button" className="btn btn--small" onClick={onReconnect}>
              Connect
            </button>
          )
        )}
      </header>
      <ConnectionStatus state={state} language={connection.language ?? ""} onOpenTable={onOpenTable} />
      {state?.status === "ready" && state.capabilities.nodes && <ClusterNodes connectionId={connection.id} />}
      {state?.status === "ready" && state.capabilities.accessControl && <AccessSection connectionId={connection.id} />}
      {state?.status === "ready" && state.capabilities.backups && <BackupsSection connectionId={connection.id} tables={state.tables.map((t) => t.name)} />}
      <dl className="props">
        {rows.map(([k, v]) => (
          <div key={k} className="props__row">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ConnectionStatus({ state, language, onOpenTable }: { state?: OpenedState; language: string; onOpenTable: (t: string) => void }) {
  switch (state?.status) {
    case undefined:
      return <p className="panel__note">Not connected.</p>;
    case "connecting":
      return (
        <p className="panel__note" role="status">
          <span className="spinner" aria-hidden="true" /> Connecting…
        </p>
      );
    case "error":
    case "dropped":
      return (
        <div className="list-state list-state--error panel__status" role="alert">
          <p className="list-state__title">{state.status === "error" ? "Could not connect" : "Connection dropped"}</p>
          <p className="list-state__hint">{state.error.message}</p>
        </div>
      );
    case "ready":
      return (
        <div className="panel__status">
          <p className="panel__note">
            Connected{state.serverVersion && <> · server {state.serverVersion}</>}
            {state.route && <> · {state.route}</>} · {state.tables.length}{" "}
            {state.tables.length === 1 ? "collection" : "collections"}
          </p>
          <p className="panel__note" aria-label="What the driver offers">
            {describeCapabilities(state.capabilities, language)}
          </p>
          {state.tables.length > 0 && (
            <ul className="table-cards" aria-label="Collections">
              {state.tables.map((t) => {
                const n = state.counts?.[t.name]?.count;
                const tenants = state.counts?.[t.name]?.tenants;
                if (t.multiTenant) {
                  // Its rows live in its tenants: the sidebar lists them, and a tenant opens.
                  return (
                    <li key={t.name}>
                      <div className="table-card table-card--static">
                        <span className="table-card__name">
                          <Icon icon={Table2} /> {t.name}
                        </span>
                        <span className="table-card__meta">
                          {tenants === undefined ? "multi-tenant" : `${formatCount(tenants)} ${tenants === 1 ? "tenant" : "tenants"}`}
                        </span>
                        <span className="table-card__desc">Multi-tenant: open one of its tenants from the sidebar.</span>
                      </div>
                    </li>
                  );
                }
                return (
                  <li key={t.name}>
                    <button type="button" className="table-card" onClick={() => onOpenTable(t.name)}>
                      <span className="table-card__name">
                        <Icon icon={Table2} /> {t.name}
                      </span>
                      <span className="table-card__meta">
                        {n === undefined || n === null ? "" : `${formatCount(n)} rows`}
                      </span>
                      {t.description && <span className="table-card__desc">{t.description}</span>}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      );
  }
}

/** describeCapabilities says in words what the connection's driver offers; language is its driver's words for its editor. */
export function describeCapabilities(c: Capabilities, language: string): string {
  const parts = [`Editor: ${language || c.queryLanguage.toUpperCase() || "no query language"}`];
  if (c.maxResults > 0) parts.push(`paging stops at row ${c.maxResults.toLocaleString("en-US")}`);
  parts.push(c.transactions ? "edits are atomic" : "edits are applied row by row");
  return parts.join(" · ");
}
