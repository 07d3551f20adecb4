import { describe, expect, it } from "vitest";
import { grid, tableInfo } from "../../test/fakeApi";
import { column } from "../../test/fakeApi";
import { hasVectorizer, initialSearch, measureFirst, modesFor, notReady, toSend } from "./searchModel";
import { settingIn } from "../details/settingLink";

const plain = tableInfo("Article");
const vectorized = { ...plain, settings: { ...plain.settings, vectorizer: "text2vec-transformers" } };
const named = {
  ...plain,
  settings: { ...plain.settings, namedVectors: ["body_vec", "title_vec"], vectorizedVectors: [] },
};
const namedVectorized = { ...named, settings: { ...named.settings, vectorizedVectors: ["title_vec"] } };

describe("the search panel's request (issue 23, item 3)", () => {
  it("offers near text only where a vectorizer makes vectors", () => {
    expect(modesFor(plain).map((m) => m.mode)).toEqual(["bm25", "hybrid", "nearVector", "nearObject"]);
    expect(modesFor(vectorized).map((m) => m.mode)).toEqual(["bm25", "hybrid", "nearText", "nearVector", "nearObject"]);
    expect(hasVectorizer(named)).toBe(false);
    expect(hasVectorizer(namedVectorized)).toBe(true);
  });

  it("starts hybrid keyword-only (alpha 0) without a vectorizer, at the server's 0.75 with one", () => {
    expect(initialSearch(plain, []).alpha).toBe(0);
    expect(initialSearch(vectorized, []).alpha).toBe(0.75);
    expect(initialSearch(named, []).targetVector).toBe("body_vec");
  });

  it("sends only what the mode reads: bm25 no vector, no alpha; a vector search no words", () => {
    const r = { ...initialSearch(named, []), query: "north", vector: "[1]", alpha: 0.5, fusion: "ranked", searchProperties: ["title"], explain: true };
    expect(toSend({ ...r, mode: "bm25" }, named)).toMatchObject({ query: "north", vector: "", alpha: null, fusion: "", targetVector: "", searchProperties: ["title"], explain: true });
    expect(toSend({ ...r, mode: "hybrid" }, named)).toMatchObject({ alpha: 0.5, fusion: "ranked", targetVector: "body_vec", explain: true });
    expect(toSend({ ...r, mode: "nearVector" }, named)).toMatchObject({ query: "", vector: "[1]", searchProperties: [], explain: false, targetVector: "body_vec" });
  });

  it("says what is missing before it can run", () => {
    const r = initialSearch(plain, []);
    expect(notReady(r)).toBe("Type the words to search for");
    expect(notReady({ ...r, mode: "nearVector" })).toMatch(/Paste a vector/);
    expect(notReady({ ...r, mode: "nearObject", objectId: "x" })).toBe("");
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
