import { CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { editorLanguage } from "..";
import { namespace } from "./sql";

const schema = () => ({ "public.items": ["id", "title", "price"], "sales.orders": ["order_id", "item_id"] });

async function complete(doc: string, functions: string[] = []): Promise<string[]> {
  const lang = editorLanguage("sql");
  const state = EditorState.create({ doc, extensions: lang.syntax });
  const r = (await lang.completion(schema, () => functions)(new CompletionContext(state, doc.length, true))) as CompletionResult | null;
  return r ? r.options.map((o) => o.label) : [];
}

// Issue 38, item 7: the SQL editor in the PostgreSQL dialect, completing from the live schema.
describe("the PostgreSQL driver's SQL editor", () => {
  it("nests schema-qualified tables by schema, an unqualified one under public", () => {
    expect(namespace({ "public.items": ["id"], "sales.orders": ["x"], bare: ["y"] })).toEqual({
      public: { items: ["id"], bare: ["y"] },
      sales: { orders: ["x"] },
    });
  });
  it("completes the default schema's tables, the other schemas and keywords", async () => {
    const got = await complete("SELECT * FROM ");
    expect(got).toEqual(expect.arrayContaining(["items", "sales", "public"]));
    expect(got).toContain("SELECT");
  });
  it("completes a schema's tables after its name and a table's columns after its name", async () => {
    expect(await complete("SELECT * FROM sales.")).toEqual(["orders"]);
    expect(await complete("SELECT items.")).toEqual(expect.arrayContaining(["id", "title", "price"]));
  });
  it("completes the functions the driver names where an expression goes, not after a table's name", async () => {
    const fns = ["lower", "vector_dims", "my_score"];
    expect(await complete("SELECT my_", fns)).toEqual(expect.arrayContaining(["my_score", "lower"]));
    expect(await complete("SELECT items.", fns)).not.toContain("my_score");
  });
});
