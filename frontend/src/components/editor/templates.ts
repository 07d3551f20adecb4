// Templates of the editor's menu. "Collection" is replaced by the collection chosen (or the first one).

export interface Template {
  name: string;
  text: (collection: string) => string;
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
    name: "hybrid",
    text: (c) =>
      `{\n  Get {\n    ${c}(hybrid: { query: "search words", alpha: 0.5 }, limit: 10) {\n      _additional { id score }\n    }\n  }\n}`,
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
