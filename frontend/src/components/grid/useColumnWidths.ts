import { useCallback, useSyncExternalStore } from "react";
import { useApi } from "../../api";
import { LAYOUT_MAX_COLUMNS, LAYOUT_MAX_WIDTH, LAYOUT_MIN_WIDTH, capped, layoutStore } from "../workspace/layoutStore";

const NONE: Record<string, number> = Object.freeze({}) as Record<string, number>;

/** columnWidthsKey is the layout document's key of a table's column widths. */
export function columnWidthsKey(connectionId: string, table: string) {
  return `${connectionId}/${table}`;
}

/** clampWidth rounds a width to whole pixels within the range the layout keeps (40..2000 px). */
export function clampWidth(px: number) {
  if (!Number.isFinite(px)) return LAYOUT_MIN_WIDTH;
  return Math.min(LAYOUT_MAX_WIDTH, Math.max(LAYOUT_MIN_WIDTH, Math.round(px)));
}

/**
 * useColumnWidths is the remembered column widths of one table, for the grid to apply and to
 * change when the user resizes a column:
 *
 *   const [widths, setWidth] = useColumnWidths(connection.id, table);
 *   // widths: column name -> px, only for columns the user resized ({} before the layout has
 *   // loaded or when none was); use the grid's default width for the others.
 *   // setWidth("title", 240) on resize end (or during it: writes are debounced, 500 ms).
 *
 * The widths live in the window's layout document (layout.json in the config dir, through
 * LayoutApi), under "connectionId/table", so they survive restarts. setWidth rounds and clamps
 * to 40..2000 px; the newest 200 tables and 500 columns per table are kept. Every grid showing
 * the same table sees the change at once. Needs the ApiProvider (like every panel).
 */
export function useColumnWidths(connectionId: string, table: string): [widths: Record<string, number>, setWidth: (column: string, px: number) => void] {
  const api = useApi();
  const store = layoutStore(api);
  const key = columnWidthsKey(connectionId, table);
  const widths = useSyncExternalStore(
    useCallback(
      (onChange: () => void) => {
        void store.load();
        return store.subscribe(onChange);
      },
      [store],
    ),
    () => store.current().columnWidths[key] ?? NONE,
  );
  const setWidth = useCallback(
    (column: string, px: number) => {
      if (!column || !connectionId || !table) return;
      const w = clampWidth(px);
      store.update((l) => {
        const cols = l.columnWidths[key] ?? {};
        if (cols[column] === w) return l;
        const { [key]: _, ...others } = l.columnWidths;
        const { [column]: __, ...otherCols } = cols;
        // The changed table and column move to the end: the newest are kept when trimming.
        return { ...l, columnWidths: capped({ ...others, [key]: capped({ ...otherCols, [column]: w }, LAYOUT_MAX_COLUMNS) }) };
      });
    },
    [store, key, connectionId, table],
  );
  return [widths, setWidth];
}
