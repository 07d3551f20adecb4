import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useApi, type Tenant, type TenantPage, type TenantStatus } from "../../api";
import { parseApiError } from "../../api/errors";
import { useAction } from "../frame/useAction";
import "./connections.css";

/** Height of one tenant row in pixels: the window renders only the rows in view. */
export const TENANT_ROW_HEIGHT = 26;
/** How many rows the list shows before it scrolls. */
const VISIBLE_ROWS = 12;
/** Rows rendered beyond the view on each side, so a fast scroll shows no gap. */
const OVERSCAN = 6;

interface Props {
  connectionId: string;
  table: string;
  /** The table name of the tenant whose tab is active, to mark it. */
  openTable?: string;
  onOpenTenant: (t: Tenant) => void;
  /** Counts the tree's refreshes (F5, Refresh): each reads the tenants fresh from the node. */
  refreshed?: number;
}

/** How many tenants one request reads: a few screens around the view. */
export const TENANT_WINDOW = 300;

type Load = { status: "loading" } | { status: "error"; message: string } | { status: "ready" };

/**
 * Words for a status: the current name, with the name older Weaviate versions and docs use.
 * The row shows the short word (hot, cold, frozen), and the whole words as its tooltip.
 */
export function statusShort(status: string): string {
  switch (status) {
    case "ACTIVE":
      return "hot";
    case "INACTIVE":
      return "cold";
    case "OFFLOADED":
      return "frozen";
  }
  return status.toLowerCase();
}

export function statusText(status: string): string {
  switch (status) {
    case "ACTIVE":
      return "active (hot)";
    case "INACTIVE":
      return "inactive (cold)";
    case "OFFLOADED":
      return "offloaded (frozen)";
  }
  return status.toLowerCase();
}

/**
 * TenantList lists the tenants of a multi-tenant table under it in the tree (issue 23): a
 * filter box and a windowed list. The backend lists the tenants once when the list opens and
 * answers windows of that listing, filtered by name, as the list scrolls or the filter
 * changes; the DOM holds a screenful of rows. So 50,000 tenants open within a second. The
 * filter box drives the list from the keyboard (ArrowUp/ArrowDown, PageUp/PageDown move, Enter
 * opens the tenant as a table, Escape clears); each row has Activate or Deactivate, which asks
 * natively first.
 */
export function TenantList({ connectionId, table, openTable, onOpenTenant, refreshed = 0 }: Props) {
  const api = useApi();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [page, setPage] = useState<TenantPage>({ total: 0, matched: 0, offset: 0, tenants: [], kept: false });
  const [filter, setFilter] = useState("");
  const [active, setActive] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  // The tenant whose status is being set: the others' buttons wait for it.
  const [acting, setActing] = useState<string | null>(null);
  const { run, busy: setting, error: actionError } = useAction();
  const busy = setting ? acting : null;
  const viewRef = useRef<HTMLDivElement>(null);
  // Only the newest request's answer is shown (typing sends one per key).
  const seq = useRef(0);
  // Whether a fresh listing was asked for since the list opened.
  const opened = useRef({ fresh: false });
  const asked = useRef<{ filter: string; offset: number } | null>(null);

  const fetchWindow = useCallback(
    async (f: string, offset: number, fresh: boolean) => {
      const n = ++seq.current;
      asked.current = { filter: f, offset };
      try {
        const p = await api.explorer.listTenants(connectionId, table, f, Math.max(0, offset), TENANT_WINDOW, fresh);
        if (n !== seq.current) return;
        setPage(p);
        setLoad({ status: "ready" });
        // Opened from the listing the tree's count kept: read the tenants fresh behind it.
        if (p.kept && !fresh && !opened.current.fresh) {
          opened.current.fresh = true;
          void fetchWindow(f, offset, true);
        }
      } catch (e) {
        if (n !== seq.current) return;
        asked.current = null;
        setLoad({ status: "error", message: parseApiError(e).message });
      }
    },
    [api, connectionId, table],
  );

  // The list opens from the kept listing when there is one (at once) and reads fresh behind
  // it, else fresh; a new filter reads from the listing, starting at the top.
  useEffect(() => {
    setActive(0);
    setScrollTop(0);
    if (viewRef.current) viewRef.current.scrollTop = 0;
    void fetchWindow(filter, 0, false);
  }, [filter, fetchWindow]);

  // A refresh of the tree reads the tenants fresh (added, removed or switched outside the
  // app), keeping the filter and the place in the list.
  const seenRefresh = useRef(refreshed);
  useEffect(() => {
    if (seenRefresh.current === refreshed) return;
    seenRefresh.current = refreshed;
    void fetchWindow(filter, asked.current?.offset ?? page.offset, true);
    // Only a new refresh reads here: the filter and the window have effects of their own.
  }, [refreshed]);

  // Rows in view outside the window read the window around them (the arrows scroll the
  // active row into view, so it is always among them).
  const first = Math.floor(scrollTop / TENANT_ROW_HEIGHT);
  useEffect(() => {
    if (load.status !== "ready" || page.matched === 0) return;
    const last = Math.min(first + VISIBLE_ROWS, page.matched) - 1;
    if (first >= page.offset && last < page.offset + page.tenants.length) return;
    const offset = Math.max(0, first - Math.floor(TENANT_WINDOW / 3));
    if (asked.current?.filter === filter && asked.current.offset === offset) return;
    void fetchWindow(filter, offset, false);
  }, [first, page, filter, load.status, fetchWindow]);

  const tenantAt = (i: number): Tenant | undefined => page.tenants[i - page.offset];

  const moveTo = (i: number) => {
    const next = Math.max(0, Math.min(i, page.matched - 1));
    setActive(next);
    const view = viewRef.current;
    if (!view) return;
    const top = next * TENANT_ROW_HEIGHT;
    if (top < view.scrollTop) view.scrollTop = top;
    else if (top + TENANT_ROW_HEIGHT > view.scrollTop + view.clientHeight) view.scrollTop = top + TENANT_ROW_HEIGHT - view.clientHeight;
    setScrollTop(view.scrollTop);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    let handled = true;
    switch (e.key) {
      case "ArrowDown":
        moveTo(active + 1);
        break;
      case "ArrowUp":
        moveTo(active - 1);
        break;
      case "PageDown":
        moveTo(active + VISIBLE_ROWS);
        break;
      case "PageUp":
        moveTo(active - VISIBLE_ROWS);
        break;
      case "Enter": {
        const t = tenantAt(active);
        if (t) onOpenTenant(t);
        break;
      }
      case "Escape":
        if (filter === "") handled = false;
        else setFilter("");
        break;
      default:
        handled = false;
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  const setStatus = (t: Tenant, status: TenantStatus) => {
    setActing(t.name);
    // The backend updates its listing after a Yes: the window is read from it again.
    return run(
      () => api.explorer.setTenantStatus(connectionId, table, t.name, status),
      (yes) => (yes ? fetchWindow(filter, page.offset, false) : undefined),
    );
  };

  const listId = `tenants-${connectionId}-${table}`;
  const rowId = (i: number) => `${listId}-${i}`;
  let body;
  switch (load.status) {
    case "loading":
      body = (
        <p role="status" className="tenant-list__state">
          <span className="spinner" aria-hidden="true" /> Loading tenants…
        </p>
      );
      break;
    case "error":
      body = (
        <div role="alert" className="tenant-list__state tenant-list__state--error">
          <p>Could not list the tenants: {load.message}</p>
          <button type="button" className="btn btn--small" onClick={() => void fetchWindow(filter, 0, true)}>
            Retry
          </button>
        </div>
      );
      break;
    case "ready": {
      const height = Math.min(Math.max(page.matched, 1), VISIBLE_ROWS) * TENANT_ROW_HEIGHT;
      const from = Math.max(0, first - OVERSCAN);
      const to = Math.min(page.matched, Math.ceil((scrollTop + height) / TENANT_ROW_HEIGHT) + OVERSCAN);
      const rows = [];
      for (let i = from; i < to; i++) {
        const t = tenantAt(i);
        if (!t) {
          rows.push(
            <li key={`pending-${i}`} id={rowId(i)} role="option" aria-selected={i === active} aria-disabled="true" className="tenant-item tenant-item--pending" style={{ top: i * TENANT_ROW_HEIGHT, height: TENANT_ROW_HEIGHT }}>
              …
            </li>,
          );
          continue;
        }
        const on = t.status === "ACTIVE";
        rows.push(
          <li
            key={t.name}
            id={rowId(i)}
            role="option"
            aria-selected={i === active}
            data-open={openTable === t.table || undefined}
            className="tenant-item"
            style={{ top: i * TENANT_ROW_HEIGHT, height: TENANT_ROW_HEIGHT }}
            onClick={() => {
              setActive(i);
              onOpenTenant(t);
            }}
          >
            <span className="tenant-item__name" title={`${t.name}: ${statusText(t.status)}`}>
              {t.name}
            </span>
            <span className={`tenant-item__status tenant-item__status--${statusShort(t.status)}`} title={statusText(t.status)}>
              {statusShort(t.status)}
            </span>
            <button
              type="button"
              className="btn btn--small tenant-item__action"
              disabled={busy !== null}
              aria-label={`${on ? "Deactivate" : "Activate"} tenant ${t.name}`}
              onClick={(e) => {
                e.stopPropagation();
                void setStatus(t, on ? "INACTIVE" : "ACTIVE");
              }}
            >
              {busy === t.name ? "…" : on ? "Deactivate" : "Activate"}
            </button>
          </li>,
        );
      }
      body = (
        <>
          <input
            type="search"
            className="tenant-list__filter"
            placeholder={`Filter ${page.total.toLocaleString()} tenants`}
            aria-label={`Filter the tenants of ${table}`}
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={page.matched > 0 ? rowId(active) : undefined}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            onKeyDown={onKeyDown}
          />
          {page.matched === 0 ? (
            <p role="status" className="tenant-list__state">
              {page.total === 0 ? "No tenants" : "No tenant matches"}
            </p>
          ) : (
            <div ref={viewRef} className="tenant-list__view" style={{ height }} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
              <ul id={listId} role="listbox" aria-label={`Tenants of ${table}`} className="tenant-list__rows" style={{ height: page.matched * TENANT_ROW_HEIGHT }}>
                {rows}
              </ul>
            </div>
          )}
          {actionError && (
            <p role="alert" className="tenant-list__state tenant-list__state--error">
              {actionError.message}
            </p>
          )}
        </>
      );
      break;
    }
  }
  return (
    // Clicks and keys inside stay here: the table row around it toggles on a click.
    <div className="tenant-list" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
      {body}
    </div>
  );
}
