// The PostgreSQL driver's editor language: CodeMirror's SQL grammar in the PostgreSQL dialect,
// completing keywords and, from the live schema, schema-qualified tables and their columns
// ("public.items" is the table items of schema public; an unqualified name is public's).
import type { CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import { keywordCompletionSource, PostgreSQL, schemaCompletionSource, sql, type SQLNamespace } from "@codemirror/lang-sql";
import type { EditorSchema } from "../../components/editor/schema";

/** The grammar, with PostgreSQL's keywords, types and quoting ($$ strings, "names"). */
export const sqlLanguage = sql({ dialect: PostgreSQL, upperCaseKeywords: true }).language;

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

/**
 * sqlCompletion completes from the schema the getter holds when asked (it changes as the
 * connection opens and tables are made): tables and columns where the grammar expects them,
 * else keywords and the functions the driver names (the live catalog's, when it names them).
 */
export function sqlCompletion(schema: () => EditorSchema, functions: () => string[] = () => []): CompletionSource {
  const keywords = keywordCompletionSource(PostgreSQL, true);
  return async (ctx: CompletionContext): Promise<CompletionResult | null> => {
    const fromSchema = await schemaCompletionSource({ dialect: PostgreSQL, schema: namespace(schema()), defaultSchema: "public" })(ctx);
    const fromKeywords = await keywords(ctx);
    const calls = functions().map((label) => ({ label, type: "function", apply: `${label}(` }));
    const words = fromKeywords && { ...fromKeywords, options: [...fromKeywords.options, ...calls] };
    if (!fromSchema) return words;
    if (!words || words.from !== fromSchema.from) return fromSchema;
    return { ...fromSchema, options: [...fromSchema.options, ...words.options] };
  };
}
