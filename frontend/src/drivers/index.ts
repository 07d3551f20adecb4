// The frontend's part of the drivers: what a driver's plugin cannot ship (a CodeMirror grammar
// runs in the window, not in the plugin), chosen by the name the driver gives its language
// (Capabilities.queryLanguage). Host components import this registry, never a driver's folder.
import type { CompletionSource } from "@codemirror/autocomplete";
import type { Extension } from "@codemirror/state";
import { wordCompletion, type EditorSchema } from "../components/editor/schema";
import { postgresSQL } from "./postgres/sql";
import { sqliteSQL } from "./sqlite/sql";
import { graphqlCompletion, graphqlLanguage } from "./weaviate/graphql";

/** An editor language: its syntax and its completion from the connection's schema (and the functions its driver names). */
export interface EditorLanguage {
  syntax: Extension;
  completion(schema: () => EditorSchema, functions: () => string[]): CompletionSource;
}

const languages: Record<string, EditorLanguage> = {
  graphql: { syntax: graphqlLanguage, completion: graphqlCompletion },
  sql: postgresSQL, // PostgreSQL's driver says "sql"
  sqlite: sqliteSQL,
};

/** Plain text with the schema's words: any language the frontend has no grammar of. */
const plainText: EditorLanguage = { syntax: [], completion: wordCompletion };

/** editorLanguage is the editor's support for the driver's language name ("" or unknown: plain text). */
export function editorLanguage(name: string): EditorLanguage {
  return languages[name.toLowerCase()] ?? plainText;
}
