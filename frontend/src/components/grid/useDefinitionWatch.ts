import { useEffect, useState } from "react";
import { parseApiError, useApi, type TableInfo } from "../../api";

/** How often an open table checks whether its collection's definition changed elsewhere. */
export const DEFINITION_CHECK_MS = 30_000;

/** What a check found: the definition the tab shows, another one, or no collection at all. */
export type DefinitionState = "same" | "changed" | "dropped";

/** definitionOf is what a table tab's columns and filters depend on: columns and settings. */
export function definitionOf(info: TableInfo): string {
  return JSON.stringify([info.columns.map((c) => [c.name, c.type, c.filterable]), info.settings]);
}

/**
 * useDefinitionWatch reads the table's definition again every DEFINITION_CHECK_MS while the
 * window is shown, and whenever the window gets the focus back (the person may have changed
 * the collection in another tool just now), and reports when it differs from the one the tab
 * shows (issue 23: a collection changed by the editor, an AI client or another tool says so
 * and offers the refresh), or "dropped" when the server no longer has it. Any other failed
 * read says nothing: the tab's own reads report errors.
 */
export function useDefinitionWatch(connectionId: string, table: string, shown: TableInfo | null): DefinitionState {
  const api = useApi();
  const [changed, setChanged] = useState<DefinitionState>("same");
  useEffect(() => {
    setChanged("same");
    if (!shown) return;
    const want = definitionOf(shown);
    let live = true;
    // A focus and the timer can each have a read in flight: only the newest one's answer
    // counts, so an older "same" cannot undo a newer "dropped" or "changed".
    let seq = 0;
    const check = () => {
      if (document.hidden) return;
      const mine = ++seq;
      const newest = () => live && mine === seq;
      api.explorer.describeTable(connectionId, table).then(
        (info) => {
          if (newest()) setChanged(definitionOf(info) !== want ? "changed" : "same");
        },
        (e) => {
          if (newest() && parseApiError(e).code === "not_found") setChanged("dropped");
        },
      );
    };
    const t = setInterval(check, DEFINITION_CHECK_MS);
    window.addEventListener("focus", check);
    return () => {
      live = false;
      clearInterval(t);
      window.removeEventListener("focus", check);
    };
  }, [api, connectionId, table, shown]);
  return changed;
}
