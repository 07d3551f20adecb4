import { describe, expect, it } from "vitest";
import { grid, tableInfo, weaviateSearches } from "../../test/fakeApi";
import { column } from "../../test/fakeApi";
import { choiceOf, choicesFor, choose, initialSearch, measureFirst, notReady, toSend, usesVector } from "./searchModel";
import { settingIn } from "../details/settingLink";

// The tables search as the Weaviate driver describes the demo Article collection (the Go test
// TestTheFrontendSearchFixtureIsThisDriversModes keeps weaviate-searches.json so).
const plain = tableInfo("Article");
const vectorized = { ...plain, searches: weaviateSearches.vectorized };
const named = { ...plain, settings: { ...plain.settings, namedVectors: ["body_vec", "title_vec"] } };
const noWords = { ...plain, searches: [] };

describe("the search panel's request (issue 23, item 3; contract 3)", () => {
  it("offers the table's searches by words as its driver describes them, then near a vector and near a row", () => {
    expect(choicesFor(plain).map((c) => c.label)).toEqual(["Keyword (bm25)", "Hybrid", "Near vector", "Near row"]);
    expect(choicesFor(vectorized).map((c) => c.label)).toEqual(["Keyword (bm25)", "Hybrid", "Near text", "Near vector", "Near row"]);
    expect(choicesFor(noWords).map((c) => c.label)).toEqual(["Near vector", "Near row"]);
    expect(choicesFor({ ...noWords, columns: noWords.columns.filter((c) => c.name !== "vector") })).toEqual([]);
  });

  it("starts on the first search by words with the mode's defaults, or near a vector where the table has none", () => {
    expect(initialSearch(plain, [])).toMatchObject({ by: "words", mode: "bm25" });
    expect(initialSearch(plain, []).params).toEqual({});
    expect(choose(initialSearch(plain, []), "words:hybrid", plain).params).toEqual({ alpha: "0", fusion: "", vector: "" });
    expect(choose(initialSearch(vectorized, []), "words:hybrid", vectorized).params).toEqual({ alpha: "0.75", fusion: "", vector: "" });
    expect(initialSearch(named, []).targetVector).toBe("body_vec");
    expect(initialSearch(noWords, [])).toMatchObject({ by: "vector", mode: "" });
    expect(initialSearch(noWords, []).params).toEqual({});
    const row = choose(initialSearch(plain, []), "row", plain);
    expect(row.by).toBe("row");
    expect(choiceOf(row)).toBe("row");
  });

  it("sends only what the choice reads: the mode's parameters, its columns, its vector", () => {
    const r = { ...initialSearch(named, []), query: "north", vector: "[1]", row: { uuid: "k" }, params: { alpha: "0.5", fusion: "ranked", stray: "1" }, searchColumns: ["title"], explain: true };
    const bm25 = toSend({ ...r, mode: "bm25" }, named);
    expect(bm25).toMatchObject({ query: "north", vector: "", row: {}, targetVector: "", searchColumns: ["title"], explain: true });
    expect(bm25.params).toEqual({});
    const hybrid = toSend({ ...r, mode: "hybrid" }, named);
    expect(hybrid).toMatchObject({ targetVector: "body_vec", explain: true });
    expect(hybrid.params).toEqual({ alpha: "0.5", fusion: "ranked", vector: "" });
    const vector = toSend({ ...r, by: "vector" }, named);
    expect(vector).toMatchObject({ mode: "", query: "", vector: "[1]", row: {}, searchColumns: [], explain: false, targetVector: "body_vec" });
    expect(vector.params).toEqual({});
    expect(usesVector({ ...r, mode: "bm25" }, named)).toBe(false);
  });

  it("says what is missing before it can run", () => {
    const r = initialSearch(plain, []);
    expect(notReady(r, plain)).toBe("Type the words to search for");
    expect(notReady({ ...r, by: "vector" }, plain)).toMatch(/Paste a vector/);
    expect(notReady({ ...r, by: "row" }, plain)).toBe("Give the key of a row");
    expect(notReady({ ...r, by: "row", row: { uuid: "x" } }, plain)).toBe("");
  });

  // issue 37, item 3: a row is named by its key, one column or several
  const orders = { ...plain, primaryKey: ["tenant", "id"] };

  it("a row near which to search is its key by column, as typed and trimmed; every key column is needed", () => {
    const r = { ...choose(initialSearch(orders, []), "row", orders), row: { tenant: " north ", id: "7" } };
    expect(toSend(r, orders).row).toEqual({ tenant: "north", id: "7" });
    expect(notReady(r, orders)).toBe("");
    expect(notReady({ ...r, row: { tenant: "north", id: " " } }, orders)).toBe("Give the id of the row");
    expect(notReady({ ...r, row: {} }, orders)).toBe("Give the key of a row");
    // a one-column key's one input is the key
    expect(toSend({ ...r, row: { uuid: " u1 " } }, plain).row).toEqual({ uuid: "u1" });
  });

  it("hybrid's row vector is the row's key, none when left blank, and waits for a key typed in part", () => {
    const hybrid = { ...choose(initialSearch(orders, []), "words:hybrid", orders), query: "rust" };
    expect(toSend(hybrid, orders).vectorRow).toEqual({});
    expect(notReady({ ...hybrid, vectorRow: { tenant: "north" } }, orders)).toBe("Give the id of the row whose vector");
    expect(toSend({ ...hybrid, vectorRow: { tenant: "north", id: 7 } }, orders).vectorRow).toEqual({ tenant: "north", id: 7 });
    // bm25 takes no vector: a row typed for hybrid is not sent
    expect(toSend({ ...hybrid, mode: "bm25", vectorRow: { tenant: "north", id: 7 } }, orders).vectorRow).toEqual({});
  });

  it("a table without a primary key offers no search near a row", () => {
    expect(choicesFor({ ...plain, primaryKey: [] }).map((c) => c.label)).toEqual(["Keyword (bm25)", "Hybrid", "Near vector"]);
  });

  it("puts the ranking and its explanation next to uuid", () => {
    const cols = [column("uuid", { primaryKey: true }), column("title"), column("score"), column("explainScore")];
    const g = measureFirst(grid([["u", "t", "1.5", "why"]], { columns: cols }), "score");
    expect(g.columns.map((c) => c.name)).toEqual(["uuid", "score", "explainScore", "title"]);
    expect(g.rows[0]).toEqual(["u", "1.5", "why", "t"]);
  });
});

describe("a refusal's link to the setting behind it (issue 23, item 2)", () => {
  it("finds the setting the reason quotes, the longest one when several match", () => {
    const details = [
      { title: "P", items: [{ label: "a", value: "", setting: "properties.title" }, { label: "b", value: "", setting: "properties.titles" }] },
      { title: "I", items: [{ label: "n", value: "", setting: "invertedIndexConfig.indexNullState" }] },
    ];
    expect(settingIn("IsNull needs indexNullState, which Article does not enable (invertedIndexConfig.indexNullState)", details)).toBe("invertedIndexConfig.indexNullState");
    expect(settingIn("see properties.titles", details)).toBe("properties.titles");
    expect(settingIn("Weaviate has no regular-expression filter", details)).toBeNull();
  });
});
