import { describe, expect, it } from "vitest";
import { errorPosition, splitStatements, statementAt } from "./statements";
import { completionScope, FILTER_OPERATORS, SEARCH_OPERATORS, ADDITIONAL } from "./graphql";

const text = `{ Get { Typed { title } } }

GET /v1/schema

POST /v1/objects
{"class": "Person"}
`;

describe("statements (issue 14)", () => {
  it("splits on blank lines and keeps offsets", () => {
    const s = splitStatements(text);
    expect(s.map((x) => x.text)).toEqual(["{ Get { Typed { title } } }", "GET /v1/schema", 'POST /v1/objects\n{"class": "Person"}']);
    for (const x of s) expect(text.slice(x.from, x.to)).toBe(x.text);
  });

  it("finds the statement under the cursor, the one above on a blank line, a REST body with its line", () => {
    expect(statementAt(text, 3)?.text).toContain("Get");
    expect(statementAt(text, text.indexOf("schema"))?.text).toBe("GET /v1/schema");
    expect(statementAt(text, text.indexOf("GET") - 1)?.text).toContain("Get"); // the blank line after the first
    expect(statementAt(text, text.indexOf('"class"'))?.text).toBe('POST /v1/objects\n{"class": "Person"}');
    expect(statementAt(text, text.length)?.text).toContain("POST");
    expect(statementAt("\n\n", 1)).toBeNull();
    expect(statementAt("\n\nGET /v1/meta", 0)?.text).toBe("GET /v1/meta");
  });

  it("reads an error's position", () => {
    expect(errorPosition("GraphQL syntax error: Expected Name (line 2, column 5)")).toEqual({ line: 2, column: 5 });
    expect(errorPosition("no position")).toBeNull();
  });
});

describe("completion scope (issue 14)", () => {
  const schema = { Typed: ["title", "count"], Person: ["name"] };
  it("offers Get and Aggregate at the root, then collections", () => {
    expect(completionScope("{ ", schema)?.words).toEqual(["Get", "Aggregate"]);
    expect(completionScope("{ Get { ", schema)?.words).toEqual(["Typed", "Person"]);
    expect(completionScope("{ Aggregate { ", schema)?.words).toEqual(["Typed", "Person"]);
  });
  it("offers a collection's properties and _additional, then its members", () => {
    expect(completionScope("{ Get { Typed(limit: 2) { ", schema)?.words).toEqual(["title", "count", "_additional"]);
    expect(completionScope("{ Get { Typed { title _additional { ", schema)?.words).toEqual(ADDITIONAL);
    expect(completionScope("{ Aggregate { Person { ", schema)?.words).toEqual(["meta", "name"]);
  });
  it("offers search operators in the arguments, filter operators after operator:, properties in path", () => {
    expect(completionScope("{ Get { Typed(", schema)?.words).toEqual(SEARCH_OPERATORS);
    expect(completionScope('{ Get { Typed(where: { path: ["', schema)).toBeNull(); // inside a string
    expect(completionScope("{ Get { Typed(where: { path: [", schema)?.words).toEqual(["title", "count"]);
    expect(completionScope('{ Get { Typed(where: { path: ["title"], operator: ', schema)?.words).toEqual(FILTER_OPERATORS);
  });
});
