// The PostgreSQL driver's editor language: CodeMirror's SQL grammar in the PostgreSQL dialect,
// completing keywords and, from the live schema, schema-qualified tables and their columns
// ("public.items" is the table items of schema public; an unqualified name is public's).
import { PostgreSQL, type SQLNamespace } from "@codemirror/lang-sql";
import type { EditorSchema } from "../../components/editor/schema";
import { sqlSupport } from "../sql";

/** namespace is the schema as lang-sql nests it: schema -> table -> columns. */
export function namespace(schema: EditorSchema): SQLNamespace {
  const out: Record<string, Record<string, string[]>> = {};
  for (const [name, columns] of Object.entries(schema)) {
    const dot = name.indexOf(".");
    const [ns, table] = dot > 0 ? [name.slice(0, dot), name.slice(dot + 1)] : ["public", name];
    (out[ns] ??= {})[table] = columns;
  }
  return out;
}

/** postgresSQL is the grammar (PostgreSQL's keywords, types and quoting: $$ strings, "names") and its completion. */
export const postgresSQL = sqlSupport(PostgreSQL, namespace, "public");
