import type { CompletionContext, CompletionResult } from "@codemirror/autocomplete";

/** The schema the editor's completion knows: each table's column names. */
export type EditorSchema = Record<string, string[]>;

/**
 * wordCompletion completes a word from the schema the getter returns at the time of asking:
 * the table names and every column name. It is the editor's completion for a language the
 * frontend has no grammar of, so a new driver's editor still knows its tables.
 */
export function wordCompletion(schema: () => EditorSchema) {
  return (ctx: CompletionContext): CompletionResult | null => {
    const word = ctx.matchBefore(/\w*/);
    if (!word || (word.from === word.to && !ctx.explicit)) return null;
    const s = schema();
    const tables = Object.keys(s).map((label) => ({ label, type: "type" }));
    const seen = new Set<string>();
    const columns = Object.values(s)
      .flat()
      .filter((c) => !seen.has(c) && (seen.add(c), true))
      .map((label) => ({ label, type: "property" }));
    return { from: word.from, options: [...tables, ...columns], validFor: /^\w*$/ };
  };
}
