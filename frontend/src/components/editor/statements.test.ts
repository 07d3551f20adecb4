import { describe, expect, it } from "vitest";
import { errorPosition, splitStatements, statementAt } from "./statements";

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
