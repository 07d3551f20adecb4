import { describe, expect, it } from "vitest";
import { completionScope, FILTER_OPERATORS, SEARCH_OPERATORS, ADDITIONAL } from "./graphql";

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
