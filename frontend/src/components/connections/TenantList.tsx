import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useApi, type Tenant, type TenantStatus } from "../../api";
import { parseApiError } from "../../api/errors";

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
}

type Load = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; tenants: Tenant[] };

/** Words for a status: the current name, with the name older Weaviate versions and docs use. */
export function statusText(status: string): string {
  switch (status) {
    case "ACTIVE":
      return "active";
    case "INACTIVE":
      return "inactive (cold)";
    case "OFFLOADED":
      return "offloaded (frozen)";
  }
  return status.toLowerCase();
}

/**
 * TenantList lists the tenants of a multi-tenant table under it in the tree (issue 23): a
 * filter box and a windowed list, so 50,000 tenants cost the DOM a screenful of rows. The
 * filter box drives the list from the keyboard (ArrowUp/ArrowDown move, Enter opens the tenant
 * as a table, Escape clears); each row has Activate or Deactivate, which asks natively first.
 */
export function TenantList({ connectionId, table, openTable, onOpenTenant }: Props) {
  const api = useApi();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [filter, setFilter] = useState("");
  const [active, setActive] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const viewRef = useRef<HTMLDivElement>(null);

  const reload = useCallback(async () => {
    try {
      const tenants = await api.explorer.listTenants(connectionId, table);
      setLoad({ status: "ready", tenants });
    } catch (e) {
      setLoad({ status: "error", message: parseApiError(e).message });
    }
  }, [api, connectionId, table]);

  useEffect(() => {
    setLoad({ status: "loading" });
    void reload();
  }, [reload]);

  const shown = useMemo(() => {
    if (load.status !== "ready") return [];
    const f = filter.trim().toLowerCase();
    return f === "" ? load.tenants : load.tenants.filter((t) => t.name.toLowerCase().includes(f));
  }, [load, filter]);

  // A new filter starts at the top.
  useEffect(() => {
    setActive(0);
    setScrollTop(0);
    if (viewRef.current) viewRef.current.scrollTop = 0;
  }, [filter]);

  const moveTo = (i: number) => {
    const next = Math.max(0, Math.min(i, shown.length - 1));
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
      case "Enter":
        if (shown[active]) onOpenTenant(shown[active]);
        break;
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

  const setStatus = async (t: Tenant, status: TenantStatus) => {
    setBusy(t.name);
    setActionError(null);
    try {
      if (await api.explorer.setTenantStatus(connectionId, table, t.name, status)) await reload();
    } catch (e) {
      setActionError(parseApiError(e).message);
    } finally {
      setBusy(null);
    }
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
          <button type="button" className="btn btn--small" onClick={() => void reload()}>
            Retry
          </button>
        </div>
      );
      break;
    case "ready": {
      const height = Math.min(Math.max(shown.length, 1), VISIBLE_ROWS) * TENANT_ROW_HEIGHT;
      const first = Math.max(0, Math.floor(scrollTop / TENANT_ROW_HEIGHT) - OVERSCAN);
      const last = Math.min(shown.length, Math.ceil((scrollTop + height) / TENANT_ROW_HEIGHT) + OVERSCAN);
      body = (
        <>
          <input
            type="search"
            className="tenant-list__filter"
            placeholder={`Filter ${load.tenants.length.toLocaleString()} tenants`}
            aria-label={`Filter the tenants of ${table}`}
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={shown[active] ? rowId(active) : undefined}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            onKeyDown={onKeyDown}
          />
          {shown.length === 0 ? (
            <p role="status" className="tenant-list__state">
              {load.tenants.length === 0 ? "No tenants" : "No tenant matches"}
            </p>
          ) : (
            <div
              ref={viewRef}
              className="tenant-list__view"
              style={{ height }}
              onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
            >
              <ul
                id={listId}
                role="listbox"
                aria-label={`Tenants of ${table}`}
                className="tenant-list__rows"
                style={{ height: shown.length * TENANT_ROW_HEIGHT }}
              >
                {shown.slice(first, last).map((t, k) => {
                  const i = first + k;
                  const on = t.status === "ACTIVE";
                  return (
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
                      <span className="tenant-item__name" title={t.name}>
                        {t.name}
                      </span>
                      <span className={`tenant-item__status tenant-item__status--${on ? "on" : "off"}`}>{statusText(t.status)}</span>
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
                    </li>
                  );
                })}
              </ul>
            </div>
          )}
          {actionError && (
            <p role="alert" className="tenant-list__state tenant-list__state--error">
              {actionError}
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
