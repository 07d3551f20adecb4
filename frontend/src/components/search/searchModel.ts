import type { Filter, Grid, SearchMode, SearchParam, SearchRequest, TableInfo } from "../../api";
import { missingKeyColumns, typedKey } from "../../api/rowKey";
import { toApiFilter } from "../grid/filterModel";
import { isVector } from "../grid/columnKinds";

/**
 * One choice of the panel's "Search by": a search by words the table's driver describes, or
 * a search near a pasted vector or a row's vector where the table has vectors. The host
 * knows no mode by name: the value of a mode is "words:" and its name.
 */
export interface SearchChoice {
  value: string;
  label: string;
}

const wordsPrefix = "words:";

/**
 * The choices a table offers, in the panel's order: its searches by words, then near a vector
 * and near a row (a row is named by its key: a table without one offers no search near a row).
 */
export function choicesFor(info: TableInfo): SearchChoice[] {
  const out = info.searches.map((m) => ({ value: wordsPrefix + m.name, label: m.label }));
  if (hasVectors(info)) out.push({ value: "vector", label: "Near vector" });
  if (hasVectors(info) && info.primaryKey.length > 0) out.push({ value: "row", label: "Near row" });
  return out;
}

/** The choice a request is on. */
export function choiceOf(r: SearchRequest): string {
  return r.by === "words" ? wordsPrefix + r.mode : r.by;
}

/** The request on another choice: a mode's parameters start at its defaults. */
export function choose(r: SearchRequest, value: string, info: TableInfo): SearchRequest {
  if (!value.startsWith(wordsPrefix)) return { ...r, by: value === "row" ? "row" : "vector", mode: "" };
  const m = info.searches.find((s) => s.name === value.slice(wordsPrefix.length));
  return m ? { ...r, by: "words", mode: m.name, params: defaults(m), searchColumns: r.searchColumns.filter((c) => m.textColumns.includes(c)) } : r;
}

/** hasVectors tells whether the table has a vector to search near. */
export function hasVectors(info: TableInfo): boolean {
  return info.columns.some(isVector);
}

/** The mode a request searches in, if it searches by words. */
export function modeOf(r: SearchRequest, info: TableInfo): SearchMode | undefined {
  return r.by === "words" ? info.searches.find((m) => m.name === r.mode) : undefined;
}

/** A mode's parameters as a new search starts them: each default, a number without one at its minimum (what its slider shows). */
function defaults(m: SearchMode): Record<string, string> {
  return Object.fromEntries(m.params.map((p) => [p.key, p.default || (p.kind === "number" ? String(p.min) : "")]));
}

/** A new search of a table, with the grid's filters: the table's first search by words, else near a vector. */
export function initialSearch(info: TableInfo, filters: Filter[]): SearchRequest {
  const first = info.searches[0];
  return {
    by: first ? "words" : "vector",
    mode: first?.name ?? "",
    query: "",
    vector: "",
    row: {},
    vectorRow: {},
    params: first ? defaults(first) : {},
    searchColumns: [],
    targetVector: info.settings.namedVectors[0] ?? "",
    filters,
    limit: 25,
    explain: false,
    profile: false,
  };
}

/** usesVector tells whether the search runs on a vector, so a table's named vector is chosen. */
export function usesVector(r: SearchRequest, info: TableInfo): boolean {
  return r.by !== "words" || !!modeOf(r, info)?.vector;
}

/** takesVectorRow: the mode's vector parameter may be a row's vector instead of a pasted one. */
function takesVectorRow(m: SearchMode | undefined): boolean {
  return !!m?.params.some((p) => p.kind === "vector");
}

/** What the request sends: only the fields its choice reads; a row's key as typed, trimmed ({} none). */
export function toSend(r: SearchRequest, info: TableInfo): SearchRequest {
  const m = modeOf(r, info);
  return {
    ...r,
    mode: m ? r.mode : "",
    query: m ? r.query : "",
    vector: r.by === "vector" ? r.vector : "",
    row: r.by === "row" ? typedKey(r.row, info.primaryKey) : {},
    vectorRow: takesVectorRow(m) ? typedKey(r.vectorRow, info.primaryKey) : {},
    params: m ? Object.fromEntries(m.params.map((p) => [p.key, r.params[p.key] ?? ""])) : {},
    searchColumns: m?.columns ? r.searchColumns : [],
    // A search without a vector sends no named vector.
    targetVector: usesVector(r, info) && info.settings.namedVectors.length > 0 ? r.targetVector : "",
    explain: !!m?.explains && r.explain,
    // Only a table whose database profiles searches is asked for a profile.
    profile: info.profiles && r.profile,
    filters: r.filters.map(toApiFilter),
  };
}

/**
 * notReady says why the search cannot run yet ("" when it can): a row is named by every one of
 * its key columns, so a key typed in part is not sent.
 */
export function notReady(r: SearchRequest, info: TableInfo): string {
  const pk = info.primaryKey;
  switch (r.by) {
    case "words": {
      if (r.query.trim() === "") return "Type the words to search for";
      const missing = missingKeyColumns(r.vectorRow, pk);
      return takesVectorRow(modeOf(r, info)) && missing.length > 0 && missing.length < pk.length ? `Give the ${missing.join(" and ")} of the row whose vector` : "";
    }
    case "vector":
      return r.vector.trim() === "" ? "Paste a vector, a JSON array of numbers" : "";
    case "row": {
      const missing = missingKeyColumns(r.row, pk);
      if (missing.length === pk.length) return "Give the key of a row";
      return missing.length > 0 ? `Give the ${missing.join(" and ")} of the row` : "";
    }
  }
}

/** A number parameter's value in words, for a screen reader: its end's meaning, or the number. */
export function paramWords(p: SearchParam, value: number): string {
  if (value === p.min && p.minLabel) return p.minLabel;
  if (value === p.max && p.maxLabel) return p.maxLabel;
  return String(value);
}

/** measureFirst moves the ranking column (and the score's explanation) next to the key, where a ranking is read. */
export function measureFirst(g: Grid, measure: string): Grid {
  const first = [measure, "explainScore"].map((n) => g.columns.findIndex((c) => c.name === n)).filter((j) => j > 0);
  if (first.length === 0) return g;
  const order = [0, ...first, ...g.columns.map((_, j) => j).filter((j) => j !== 0 && !first.includes(j))];
  return { ...g, columns: order.map((j) => g.columns[j]), rows: g.rows.map((r) => order.map((j) => r[j] ?? null)) };
}
