import type { Column, Filter, Grid, SearchMode, SearchRequest, TableInfo } from "../../api";
import { toApiFilter } from "../grid/filterModel";
import { scalarKind } from "../grid/columnKinds";

/** The modes a table offers, in the panel's order: nearText only where a vectorizer makes vectors. */
export function modesFor(info: TableInfo): { mode: SearchMode; label: string }[] {
  const out: { mode: SearchMode; label: string }[] = [
    { mode: "bm25", label: "Keyword (bm25)" },
    { mode: "hybrid", label: "Hybrid" },
  ];
  if (hasVectorizer(info)) out.push({ mode: "nearText", label: "Near text" });
  out.push({ mode: "nearVector", label: "Near vector" }, { mode: "nearObject", label: "Near object" });
  return out;
}

/**
 * hasVectorizer tells whether the collection turns words into vectors: its own vectorizer, or
 * (named vectors) a vectorizer of one of them. Without one, hybrid can only weigh keywords.
 */
export function hasVectorizer(info: TableInfo): boolean {
  if (info.settings.namedVectors.length === 0) return !!info.settings.vectorizer && info.settings.vectorizer !== "none";
  return info.settings.vectorizedVectors.length > 0;
}

/** The properties whose words bm25 and hybrid can match: text and text arrays. */
export function searchableColumns(columns: Column[]): Column[] {
  return columns.filter((c) => !c.primaryKey && scalarKind(c) === "text");
}

/** A new search of a table, with the grid's filters: hybrid starts keyword-only without a vectorizer. */
export function initialSearch(info: TableInfo, filters: Filter[]): SearchRequest {
  return {
    mode: "bm25",
    query: "",
    vector: "",
    objectId: "",
    alpha: hasVectorizer(info) ? 0.75 : 0,
    fusion: "",
    searchProperties: [],
    targetVector: info.settings.namedVectors[0] ?? "",
    filters,
    limit: 25,
    explain: false,
  };
}

/** What the request sends: only the fields its mode reads. */
export function toSend(r: SearchRequest, info: TableInfo): SearchRequest {
  const words = r.mode === "bm25" || r.mode === "hybrid" || r.mode === "nearText";
  const keyword = r.mode === "bm25" || r.mode === "hybrid";
  // bm25 uses no vector: a named vector is sent only for the searches that use one.
  const usesVector = r.mode !== "bm25" && info.settings.namedVectors.length > 0;
  return {
    ...r,
    query: words ? r.query : "",
    vector: r.mode === "nearVector" ? r.vector : "",
    objectId: r.mode === "nearObject" ? r.objectId : "",
    alpha: r.mode === "hybrid" ? r.alpha : null,
    fusion: r.mode === "hybrid" ? r.fusion : "",
    searchProperties: keyword ? r.searchProperties : [],
    targetVector: usesVector ? r.targetVector : "",
    explain: keyword && r.explain,
    filters: r.filters.map(toApiFilter),
  };
}

/** ready says why the search cannot run yet ("" when it can). */
export function notReady(r: SearchRequest): string {
  switch (r.mode) {
    case "bm25":
    case "hybrid":
    case "nearText":
      return r.query.trim() === "" ? "Type the words to search for" : "";
    case "nearVector":
      return r.vector.trim() === "" ? "Paste a vector, a JSON array of numbers" : "";
    case "nearObject":
      return r.objectId.trim() === "" ? "Give the uuid of a row" : "";
  }
}

/** measureFirst moves the ranking column (and the score's explanation) next to uuid, where a ranking is read. */
export function measureFirst(g: Grid, measure: string): Grid {
  const first = [measure, "explainScore"].map((n) => g.columns.findIndex((c) => c.name === n)).filter((j) => j > 0);
  if (first.length === 0) return g;
  const order = [0, ...first, ...g.columns.map((_, j) => j).filter((j) => j !== 0 && !first.includes(j))];
  return { ...g, columns: order.map((j) => g.columns[j]), rows: g.rows.map((r) => order.map((j) => r[j] ?? null)) };
}
