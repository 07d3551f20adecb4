// Templates of the editor's menu. "Collection" is replaced by the collection chosen (or the first one).

export interface Template {
  name: string;
  /** text is the template for a collection; `vectorizer` is the collection's ("none" without). */
  text: (collection: string, vectorizer?: string) => string;
  /** needsVectorizer: the text depends on whether the collection has a vectorizer. */
  needsVectorizer?: boolean;
}

export const TEMPLATES: Template[] = [
  { name: "Get", text: (c) => `{\n  Get {\n    ${c}(limit: 10) {\n      _additional { id }\n    }\n  }\n}` },
  {
    name: "nearVector",
    text: (c) =>
      `{\n  Get {\n    ${c}(nearVector: { vector: [0.1, 0.2, 0.3] }, limit: 5) {\n      _additional { id distance }\n    }\n  }\n}`,
  },
  {
    name: "nearObject",
    text: (c) =>
      `{\n  Get {\n    ${c}(nearObject: { id: "00000000-0000-0000-0000-000000000000" }, limit: 5) {\n      _additional { id distance }\n    }\n  }\n}`,
  },
  {
    name: "bm25",
    text: (c) => `{\n  Get {\n    ${c}(bm25: { query: "search words" }, limit: 10) {\n      _additional { id score }\n    }\n  }\n}`,
  },
  {
    // The vector half of a hybrid search vectorizes the query; a collection without a
    // vectorizer refuses that ("VectorFromInput was called without vectorizer"), so its template
    // runs the keyword half alone (alpha 0) and says how to add the vector (issue 23).
    name: "hybrid",
    needsVectorizer: true,
    text: (c, vectorizer) =>
      vectorizer === undefined || (vectorizer !== "" && vectorizer !== "none")
        ? `{\n  Get {\n    ${c}(hybrid: { query: "search words", alpha: 0.5 }, limit: 10) {\n      _additional { id score explainScore }\n    }\n  }\n}`
        : `{\n  # ${c} has no vectorizer: to weigh vectors too, give the query's vector (vector: [...]) and raise alpha\n  Get {\n    ${c}(hybrid: { query: "search words", alpha: 0 }, limit: 10) {\n      _additional { id score explainScore }\n    }\n  }\n}`,
  },
  {
    name: "where filter",
    text: (c) =>
      `{\n  Get {\n    ${c}(where: { path: ["name"], operator: Equal, valueText: "value" }, limit: 10) {\n      _additional { id }\n    }\n  }\n}`,
  },
  { name: "Aggregate", text: (c) => `{\n  Aggregate {\n    ${c} {\n      meta { count }\n    }\n  }\n}` },
  { name: "REST: GET schema", text: () => "GET /v1/schema" },
  { name: "REST: GET object", text: (c) => `GET /v1/objects/${c}/00000000-0000-0000-0000-000000000000` },
  {
    name: "REST: POST object",
    text: (c) => `POST /v1/objects\n{"class": "${c}", "properties": {}}`,
  },
  {
    name: "REST: PATCH object",
    // The class-scoped paths: weaviate-server ignores ?class= on a delete and deletes by id
    // in whichever collection holds it; the body names the class as well, as PATCH expects.
    text: (c) => `PATCH /v1/objects/${c}/00000000-0000-0000-0000-000000000000\n{"class": "${c}", "properties": {}}`,
  },
  { name: "REST: DELETE object", text: (c) => `DELETE /v1/objects/${c}/00000000-0000-0000-0000-000000000000` },
];
