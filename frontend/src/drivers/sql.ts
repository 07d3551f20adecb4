// The SQL drivers' editor support, written once: CodeMirror's SQL grammar in a driver's dialect,
// completing keywords, the functions the driver names, and from the live schema the tables and
// their columns where the grammar expects them. Each driver's folder names its dialect and how
// its table names nest (drivers/postgres: schema.table; drivers/sqlite: plain names).
import type { CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import { keywordCompletionSource, schemaCompletionSource, sql, type SQLDialect, type SQLNamespace } from "@codemirror/lang-sql";
import type { Extension } from "@codemirror/state";
import type { EditorSchema } from "../components/editor/schema";

/** SQLSupport is one dialect's grammar and completion. */
export interface SQLSupport {
  syntax: Extension;
  completion(schema: () => EditorSchema, functions?: () => string[]): CompletionSource;
}

/**
 * sqlSupport is the editor support of dialect, the schema nested by nest (table names to
 * lang-sql's namespace), unqualified names read in defaultSchema ("" for none).
 */
export function sqlSupport(dialect: SQLDialect, nest: (schema: EditorSchema) => SQLNamespace, defaultSchema = ""): SQLSupport {
  const keywords = keywordCompletionSource(dialect, true);
  return {
    syntax: sql({ dialect, upperCaseKeywords: true }).language,
    completion: (schema, functions = () => []) => async (ctx: CompletionContext): Promise<CompletionResult | null> => {
      const fromSchema = await schemaCompletionSource({ dialect, schema: nest(schema()), defaultSchema: defaultSchema || undefined })(ctx);
      const fromKeywords = await keywords(ctx);
      const calls = functions().map((label) => ({ label, type: "function", apply: `${label}(` }));
      const words = fromKeywords && { ...fromKeywords, options: [...fromKeywords.options, ...calls] };
      if (!fromSchema) return words;
      if (!words || words.from !== fromSchema.from) return fromSchema;
      return { ...fromSchema, options: [...fromSchema.options, ...words.options] };
    },
  };
}
