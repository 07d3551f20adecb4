import { CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { editorLanguage } from ".";

const schema = () => ({ Article: ["title", "wordCount"], Author: ["name", "title"] });

async function complete(language: string, doc: string): Promise<string[]> {
  const state = EditorState.create({ doc });
  const r = (await editorLanguage(language).completion(schema, () => [])(new CompletionContext(state, doc.length, true))) as CompletionResult | null;
  return r ? r.options.map((o) => o.label) : [];
}

// Contract 3: the editor's grammar is chosen by the language the driver names, and a language
// the frontend has no grammar of still completes the connection's tables and columns.
describe("the editor's language, by the driver's name for it", () => {
  it("graphql completes as the Weaviate driver's language: collections, then a collection's properties and _additional", async () => {
    expect(await complete("graphql", "{ Get { ")).toEqual(["Article", "Author"]);
    expect(await complete("GraphQL", "{ Get { Article { ")).toEqual(["title", "wordCount", "_additional"]);
  });
  it("a language without a grammar here completes the tables and each column once", async () => {
    expect(await complete("", "x")).toEqual(["Article", "Author", "title", "wordCount", "name"]);
    expect(await complete("cypher", "MATCH ")).toEqual(["Article", "Author", "title", "wordCount", "name"]);
  });
});
