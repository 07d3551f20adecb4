import { useCallback, useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type ClusterNode, type TableInfo } from "../../api";
import { formatCount } from "../opened/format";
import { detailId } from "./settingLink";
import "./details.css";

interface Props {
  connectionId: string;
  table: string;
  info: TableInfo;
  /** A setting to show first and mark (a filter refusal's link). */
  highlight?: string | null;
  onClose: () => void;
  /** The close button's words: where it returns to. */
  back?: string;
}

type Placement = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; nodes: ClusterNode[] };

/**
 * CollectionDetails is a table's definition in words (issue 23, item 2): the sections the
 * driver writes (vectors, inverted index, properties, replication and sharding), then where
 * the table lives: each node's shards with their objects. Read-only; a filter refusal opens
 * it at the setting behind the refusal.
 */
export function CollectionDetails({ connectionId, table, info, highlight, onClose, back = "Back to rows" }: Props) {
  const api = useApi();
  const [placement, setPlacement] = useState<Placement>({ status: "loading" });
  const closeRef = useRef<HTMLButtonElement>(null);
  const read = useCallback(async () => {
    setPlacement({ status: "loading" });
    try {
      setPlacement({ status: "ready", nodes: await api.explorer.tableNodes(connectionId, table) });
    } catch (e) {
      setPlacement({ status: "error", message: parseApiError(e).message });
    }
  }, [api, connectionId, table]);
  useEffect(() => {
    void read();
  }, [read]);
  useEffect(() => {
    const el = highlight ? document.getElementById(detailId(table, highlight)) : null;
    if (el) {
      el.scrollIntoView?.({ block: "center" });
      el.focus();
    } else {
      closeRef.current?.focus();
    }
  }, [highlight, table]);

  return (
    <section className="details" aria-label={`Details of ${table}`} onKeyDown={(e) => e.key === "Escape" && onClose()}>
      <div className="details__head">
        <h3 className="details__title">Definition of {table}</h3>
        <button ref={closeRef} type="button" className="btn btn--small" onClick={onClose} title="Back to the rows (Esc)">
          {back}
        </button>
      </div>
      {info.details.length === 0 && <p className="panel__note">This connection&apos;s driver does not describe its tables.</p>}
      {info.details.map((s) => (
        <div key={s.title} className="details__section">
          <h4 className="details__section-title">{s.title}</h4>
          <dl className="details__list">
            {s.items.map((it) => (
              <div
                key={`${it.label}:${it.setting}`}
                id={it.setting ? detailId(table, it.setting) : undefined}
                className="details__item"
                data-highlight={highlight && it.setting === highlight ? "" : undefined}
                tabIndex={it.setting ? -1 : undefined}
              >
                <dt>{it.label}</dt>
                <dd>
                  {it.value}
                  {it.setting && <code className="details__setting">{it.setting}</code>}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
      <div className="details__section">
        <h4 className="details__section-title">Shards on nodes</h4>
        {placement.status === "loading" && (
          <p role="status" className="panel__note">
            <span className="spinner" aria-hidden="true" /> Reading where {table} lives…
          </p>
        )}
        {placement.status === "error" && (
          <p role="alert" className="panel__note panel__note--error">
            Could not read the shards: {placement.message}{" "}
            <button type="button" className="btn btn--small" onClick={() => void read()}>
              Retry
            </button>
          </p>
        )}
        {placement.status === "ready" && <ShardTable nodes={placement.nodes} />}
      </div>
    </section>
  );
}

function ShardTable({ nodes }: { nodes: ClusterNode[] }) {
  const rows = nodes.flatMap((n) => n.tables.flatMap((t) => t.shardList.map((s) => ({ node: n.name, ...s }))));
  const left = nodes.reduce((sum, n) => sum + n.tables.reduce((k, t) => k + t.shardsLeftOut, 0), 0);
  if (rows.length === 0) return <p className="panel__note">No shard of this table is on any node yet.</p>;
  return (
    <>
      <table className="nodes-table" aria-label="Shards">
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Shard</th>
            <th scope="col" className="num" title="As the node counts them on disk: the newest writes show once it flushes them">
              Objects
            </th>
            <th scope="col">Loaded</th>
            <th scope="col">Vector index</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.node}/${r.name}`}>
              <td>{r.node}</td>
              <td>{r.name}</td>
              <td className="num">{formatCount(r.objects)}</td>
              <td>{r.loaded ? "yes" : "no (inactive)"}</td>
              <td>{r.vectorIndexing || "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {left > 0 && <p className="panel__note">and {formatCount(left)} more shards, not listed</p>}
    </>
  );
}
