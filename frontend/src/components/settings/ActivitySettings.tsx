import { useCallback, useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type ActivityEntry, type ActivityQuery, type ChainCheck } from "../../api";
import { ErrorLine } from "../frame/ErrorLine";
import { useAction } from "../frame/useAction";
import "./settings.css";

/** Rows are one fixed height, so the table can show only the rows in view. */
export const ROW_HEIGHT = 28;
/** Entries fetched at a time as the table scrolls. */
export const PAGE = 200;
const VIEW_ROWS = 12;
const OVERSCAN = 6;

type Filters = Omit<ActivityQuery, "offset" | "limit">;
const NO_FILTERS: Filters = { client: "", token: "", connection: "", outcome: "", since: "", until: "", search: "" };

const SINCE = [
  { value: "", label: "All time" },
  { value: "1h", label: "Last hour" },
  { value: "24h", label: "Last 24 hours" },
  { value: "168h", label: "Last 7 days" },
] as const;

/**
 * ActivitySettings is Settings, Activity log (issue 11): every MCP request the app recorded,
 * newest first, in a virtualized table (only the rows in view are in the page, fetched 200 at
 * a time), with filters (client, token, connection, outcome, time range) and search, a detail
 * view of one entry, a CSV export to a file chosen in a native save dialog, and the chain
 * check that names the first broken link.
 */
export function ActivitySettings() {
  const api = useApi();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [total, setTotal] = useState<number | null>(null);
  const [rows, setRows] = useState<Map<number, ActivityEntry>>(new Map());
  // The reads of pages and the actions (check, export) share the one error line.
  const { run, error, setError } = useAction();
  const [scrollTop, setScrollTop] = useState(0);
  const [selected, setSelected] = useState<ActivityEntry | null>(null);
  const [chain, setChain] = useState<ChainCheck | null>(null);
  const [exported, setExported] = useState("");
  const loading = useRef(new Set<number>());
  const generation = useRef(0);

  const fetchPage = useCallback(
    async (offset: number, gen: number) => {
      if (loading.current.has(offset)) return;
      loading.current.add(offset);
      try {
        const page = await api.activity.list({ ...filters, offset, limit: PAGE });
        if (gen !== generation.current) return;
        setTotal(page.total);
        setRows((m) => {
          const next = new Map(m);
          page.entries.forEach((e, i) => next.set(offset + i, e));
          return next;
        });
      } catch (reason) {
        if (gen === generation.current) setError(parseApiError(reason));
      } finally {
        loading.current.delete(offset);
      }
    },
    [api, filters],
  );

  // A new filter starts over from the newest entry.
  useEffect(() => {
    const gen = ++generation.current;
    loading.current.clear();
    setRows(new Map());
    setTotal(null);
    setError(null);
    setSelected(null);
    void fetchPage(0, gen);
  }, [fetchPage]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(total ?? 0, Math.ceil(scrollTop / ROW_HEIGHT) + VIEW_ROWS + OVERSCAN);

  // Fetch the pages the visible rows fall in.
  useEffect(() => {
    for (let i = first; i < last; i += PAGE) {
      const offset = Math.floor(i / PAGE) * PAGE;
      if (!rows.has(offset)) void fetchPage(offset, generation.current);
    }
    const end = Math.floor(Math.max(last - 1, 0) / PAGE) * PAGE;
    if (last > 0 && !rows.has(end)) void fetchPage(end, generation.current);
  }, [first, last, rows, fetchPage]);

  const field = (key: keyof Filters, label: string, placeholder = "") => (
    <div className="form-row">
      <label className="form-row__label" htmlFor={`activity-${key}`}>
        {label}
      </label>
      <input id={`activity-${key}`} value={draft[key]} placeholder={placeholder} onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))} />
    </div>
  );

  const visible: { index: number; entry?: ActivityEntry }[] = [];
  for (let i = first; i < last; i++) visible.push({ index: i, entry: rows.get(i) });

  return (
    <fieldset className="field activity" aria-label="Activity log">
      <legend>Activity log</legend>
      <form
        className="activity-filters"
        aria-label="Filter the activity log"
        onSubmit={(e) => {
          e.preventDefault();
          setScrollTop(0);
          setFilters(draft);
        }}
      >
        {field("search", "Search", "statement, tool, method or client")}
        {field("client", "Client")}
        {field("token", "Token")}
        {field("connection", "Connection id")}
        {field("outcome", "Outcome", "ok, error, query_failed, -33007")}
        <div className="form-row">
          <label className="form-row__label" htmlFor="activity-since">
            Time
          </label>
          <select id="activity-since" value={draft.since} onChange={(e) => setDraft((d) => ({ ...d, since: e.target.value }))}>
            {SINCE.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn--primary">
            Apply filters
          </button>
          <button type="button" className="btn" onClick={() => void run(() => api.activity.exportCSV({ ...filters, offset: 0, limit: 0 }), setExported)}>
            Export CSV…
          </button>
          <button type="button" className="btn" onClick={() => void run(() => api.activity.verify(), setChain)}>
            Check the chain
          </button>
        </div>
      </form>
      {chain && (
        <p className={`form-msg ${chain.intact ? "form-msg--ok" : "form-msg--error"}`} role="status" aria-label="Chain check">
          {chain.intact
            ? `The chain is intact: ${chain.entries} entries checked${chain.anchorId ? ` after the pruned entry ${chain.anchorId}` : ""}.`
            : `The chain is broken at entry ${chain.brokenId}: ${chain.reason}`}
        </p>
      )}
      {exported && (
        <p className="form-msg form-msg--ok" role="status" aria-label="Export">
          Exported to {exported}
        </p>
      )}
      {error && (
        <ErrorLine error={error} />
      )}
      <p className="panel__note" aria-live="polite">
        {total === null ? "Loading…" : `${total.toLocaleString("en-US")} ${total === 1 ? "entry" : "entries"}`}
      </p>
      <div className="activity-head" aria-hidden="true">
        <span>Time</span>
        <span>Client</span>
        <span>Token</span>
        <span>Method / tool</span>
        <span>Outcome</span>
        <span>ms</span>
      </div>
      <div
        className="activity-scroll"
        role="grid"
        aria-label="Activity entries"
        aria-rowcount={total ?? 0}
        style={{ height: VIEW_ROWS * ROW_HEIGHT }}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        tabIndex={0}
      >
        <div style={{ height: (total ?? 0) * ROW_HEIGHT, position: "relative" }}>
          {visible.map(({ index, entry }) => (
            <div
              key={index}
              role="row"
              aria-rowindex={index + 1}
              aria-label={entry ? `entry ${entry.id}` : "loading"}
              aria-selected={selected?.id === entry?.id && !!entry}
              className="activity-row"
              style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}
              onClick={() => entry && setSelected(entry)}
            >
              {entry ? (
                <>
                  <span role="gridcell">{entry.time.replace("T", " ").slice(0, 19)}</span>
                  <span role="gridcell">{entry.clientName || "—"}</span>
                  <span role="gridcell">{entry.tokenName || (entry.principal === "anonymous" ? "anonymous" : "—")}</span>
                  <span role="gridcell">{entry.name ? `${entry.method} ${entry.name}` : entry.method}</span>
                  <span role="gridcell" data-outcome={entry.outcome === "ok" ? "ok" : "error"}>
                    {entry.outcome}
                  </span>
                  <span role="gridcell">{entry.durationMs}</span>
                </>
              ) : (
                <span role="gridcell" className="skeleton skeleton--line" />
              )}
            </div>
          ))}
        </div>
      </div>
      {selected && (
        <dl className="props activity-detail" aria-label={`Entry ${selected.id}`}>
          {(
            [
              ["Entry", String(selected.id)],
              ["Time", selected.time],
              ["Client", `${selected.clientName} ${selected.clientVersion}`.trim()],
              ["Token", selected.tokenName ? `${selected.tokenName} (${selected.level})` : selected.principal || "none (refused)"],
              ["Method", selected.method],
              ["Tool, prompt or resource", selected.name],
              ["Connection", selected.connection],
              ["Statement", selected.statement],
              ["Outcome", selected.outcome],
              ["Duration", `${selected.durationMs} ms`],
              ["Hash", selected.hash],
              ["Previous hash", selected.prevHash],
              ["Trace (traceparent)", selected.trace],
            ] as const
          ).map(([k, v]) => (
            <div key={k} className="props__row">
              <dt>{k}</dt>
              <dd>{v || "—"}</dd>
            </div>
          ))}
        </dl>
      )}
    </fieldset>
  );
}
