// The SQLite driver's editor language: CodeMirror's SQL grammar in the SQLite dialect,
// completing keywords and, from the live schema, the file's tables (plain names) and their
// columns.
import { SQLite, type SQLNamespace } from "@codemirror/lang-sql";
import type { EditorSchema } from "../../components/editor/schema";
import { sqlSupport } from "../sql";

/** namespace is the schema as lang-sql reads it: table -> columns. */
export function namespace(schema: EditorSchema): SQLNamespace {
  return { ...schema };
}

/** sqliteSQL is the grammar (SQLite's keywords and quoting: "names", [names], `names`) and its completion. */
export const sqliteSQL = sqlSupport(SQLite, namespace);
