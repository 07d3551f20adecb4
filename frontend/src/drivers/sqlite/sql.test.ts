import { CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { editorLanguage } from "..";

const schema = () => ({ items: ["rowid", "embedding", "topic"], docs: ["id", "title"] });

async function complete(doc: string, functions: string[] = []): Promise<string[]> {
  const lang = editorLanguage("sqlite");
  const state = EditorState.create({ doc, extensions: lang.syntax });
  const r = (await lang.completion(schema, () => functions)(new CompletionContext(state, doc.length, true))) as CompletionResult | null;
  return r ? r.options.map((o) => o.label) : [];
}

// Issue 39, item 4: the SQL editor in the SQLite dialect, completing from the live schema.
describe("the SQLite driver's SQL editor", () => {
  it("completes the file's tables by their plain names, and keywords", async () => {
    const got = await complete("SELECT * FROM ");
    expect(got).toEqual(expect.arrayContaining(["items", "docs"]));
    expect(got).toContain("SELECT");
    expect(got).not.toContain("public");
  });
  it("completes a table's columns after its name", async () => {
    expect(await complete("SELECT items.")).toEqual(expect.arrayContaining(["rowid", "embedding", "topic"]));
  });
  it("completes sqlite-vec's functions where the driver names them", async () => {
    expect(await complete("SELECT vec_", ["vec_distance_l2", "vec_to_json"])).toEqual(expect.arrayContaining(["vec_distance_l2", "vec_to_json"]));
  });
  it("knows SQLite's own keywords", async () => {
    expect(await complete("PRAG")).toContain("PRAGMA");
  });
});
