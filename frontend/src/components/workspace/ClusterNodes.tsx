import { useCallback, useEffect, useState } from "react";
import { useApi, type ClusterNode } from "../../api";
import { parseApiError } from "../../api/errors";
import { formatCount } from "../opened/format";
import "./workspace.css";

/** Weaviate's node counts are its cheap "async" ones: the objects written to disk. */
const ASYNC_COUNT = "As the node counts them on disk: the newest writes show once it flushes them";

type Load = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; nodes: ClusterNode[] };

/**
 * ClusterNodes is the connection page's view of the cluster (issue 23, item 6): each node's
 * name, health, version, objects and shards, and what each collection keeps on it, so a
 * multi-node cluster is seen at a glance. Refresh reads them again.
 */
export function ClusterNodes({ connectionId }: { connectionId: string }) {
  const api = useApi();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const read = useCallback(async () => {
    setLoad({ status: "loading" });
    try {
      setLoad({ status: "ready", nodes: await api.explorer.nodes(connectionId) });
    } catch (e) {
      setLoad({ status: "error", message: parseApiError(e).message });
    }
  }, [api, connectionId]);
  useEffect(() => {
    void read();
  }, [read]);

  let body;
  switch (load.status) {
    case "loading":
      body = (
        <p role="status" className="panel__note">
          <span className="spinner" aria-hidden="true" /> Reading the nodes…
        </p>
      );
      break;
    case "error":
      body = (
        <p role="alert" className="panel__note panel__note--error">
          Could not read the nodes: {load.message}
        </p>
      );
      break;
    case "ready":
      body = (
        <>
          <table className="nodes-table" aria-label="Nodes">
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">Status</th>
                <th scope="col">Version</th>
                <th scope="col" className="num" title={ASYNC_COUNT}>
                  Objects
                </th>
                <th scope="col" className="num">
                  Shards
                </th>
              </tr>
            </thead>
            <tbody>
              {load.nodes.map((n) => (
                <tr key={n.name}>
                  <th scope="row">{n.name}</th>
                  <td>
                    <span className="node-status" data-healthy={n.status === "HEALTHY" || undefined}>
                      {n.status.toLowerCase()}
                    </span>
                  </td>
                  <td>{n.version}</td>
                  <td className="num">{formatCount(n.objects)}</td>
                  <td className="num">{formatCount(n.shards)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {load.nodes.map((n) =>
            n.tables.length === 0 ? null : (
              <details key={n.name} className="nodes-detail">
                <summary>What each collection keeps on {n.name}</summary>
                <table className="nodes-table" aria-label={`Collections on ${n.name}`}>
                  <thead>
                    <tr>
                      <th scope="col">Collection</th>
                      <th scope="col" className="num" title={ASYNC_COUNT}>
                        Objects
                      </th>
                      <th scope="col" className="num">
                        Shards (loaded)
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {n.tables.map((t) => (
                      <tr key={t.table}>
                        <th scope="row">{t.table}</th>
                        <td className="num">{formatCount(t.objects)}</td>
                        <td className="num">
                          {formatCount(t.shards)}
                          {t.loaded !== t.shards && <> ({formatCount(t.loaded)})</>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            ),
          )}
        </>
      );
      break;
  }
  return (
    <section className="panel__section" aria-label="Cluster nodes">
      <div className="panel__section-head">
        <h3 className="panel__section-title">Nodes</h3>
        <button type="button" className="btn btn--small" onClick={() => void read()} disabled={load.status === "loading"}>
          Refresh
        </button>
      </div>
      {body}
    </section>
  );
}
