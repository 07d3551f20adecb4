// The Weaviate driver's editor language in the frontend: a small GraphQL mode for CodeMirror 6
// (StreamLanguage) and the schema-aware completion of collections, properties, `_additional`
// members, search operators and filter operators. The editor loads it for a connection whose
// driver says its language is "graphql" (Capabilities.queryLanguage), through drivers/index.ts.
import type { CompletionContext, CompletionResult } from "@codemirror/autocomplete";
import { StreamLanguage, type StreamParser } from "@codemirror/language";
import { statementAt } from "../../components/editor/statements";
import type { EditorSchema } from "../../components/editor/schema";

const KEYWORDS = new Set(["query", "mutation", "subscription", "fragment", "on", "true", "false", "null"]);
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

interface State {
  inString: false | '"""';
}

const parser: StreamParser<State> = {
  name: "graphql",
  startState: () => ({ inString: false }),
  token(stream, state) {
    if (state.inString === '"""') {
      while (!stream.eol()) {
        if (stream.match('"""')) {
          state.inString = false;
          return "string";
        }
        stream.next();
      }
      return "string";
    }
    if (stream.eatSpace()) return null;
    if (stream.peek() === "#") {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match('"""')) {
      state.inString = '"""';
      return "string";
    }
    if (stream.eat('"')) {
      let ch: string | void;
      while ((ch = stream.next()) !== undefined) {
        if (ch === "\\") stream.next();
        else if (ch === '"') break;
      }
      return "string";
    }
    if (stream.match(/^-?\d+(\.\d+)?([eE][+-]?\d+)?/)) return "number";
    if (stream.match(/^\$[A-Za-z_]\w*/)) return "variableName";
    if (stream.match(/^\/[\w/.?=&%-]*/)) return "string";
    const word = stream.match(/^[A-Za-z_]\w*/) as RegExpMatchArray | null;
    if (word) {
      const w = word[0];
      if (stream.sol() || stream.start === 0) {
        if (METHODS.has(w)) return "keyword";
      }
      if (KEYWORDS.has(w)) return "keyword";
      if (w === "Get" || w === "Aggregate" || w === "Explore") return "keyword";
      if (w === "_additional") return "special(variableName)";
      if (/^[A-Z]/.test(w)) return "typeName";
      if (/^\s*:/.test(stream.string.slice(stream.pos))) return "propertyName";
      return "variableName";
    }
    if (stream.match(/^[{}()[\]]/)) return "bracket";
    if (stream.match(/^[:,=!@.|&]+/)) return "punctuation";
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: "#" } },
};

export const graphqlLanguage = StreamLanguage.define(parser);

export const ADDITIONAL = [
  "id",
  "distance",
  "certainty",
  "score",
  "explainScore",
  "vector",
  "vectors",
  "creationTimeUnix",
  "lastUpdateTimeUnix",
];
export const SEARCH_OPERATORS = ["nearVector", "nearObject", "nearText", "bm25", "hybrid", "where", "limit", "offset", "sort", "after", "autocut", "tenant", "groupBy"];
export const FILTER_OPERATORS = [
  "Equal",
  "NotEqual",
  "GreaterThan",
  "GreaterThanEqual",
  "LessThan",
  "LessThanEqual",
  "Like",
  "ContainsAny",
  "ContainsAll",
  "ContainsNone",
  "IsNull",
  "WithinGeoRange",
  "And",
  "Or",
  "Not",
];
const ROOT = ["Get", "Aggregate"];

interface Frame {
  kind: "{" | "(" | "[";
  owner: string;
}

/** completionScope tells what belongs at the end of text: a list of words and what they are. */
export function completionScope(text: string, schema: EditorSchema): { words: string[]; type: string } | null {
  if (/operator:\s*\w*$/.test(text)) return { words: FILTER_OPERATORS, type: "enum" };
  const stack: Frame[] = [];
  let last = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      const j = text.indexOf('"', i + 1);
      if (j < 0) return null; // inside a string
      i = j + 1;
      continue;
    }
    if (ch === "#") {
      const j = text.indexOf("\n", i);
      if (j < 0) return null;
      i = j;
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      let j = i;
      while (j < text.length && /\w/.test(text[j])) j++;
      last = text.slice(i, j);
      i = j;
      continue;
    }
    if (ch === "{" || ch === "(" || ch === "[") {
      stack.push({ kind: ch, owner: last });
      last = "";
    } else if (ch === "}" || ch === ")" || ch === "]") {
      const f = stack.pop();
      last = ch === ")" && f ? f.owner : "";
    } else if (ch === ":") {
      last = "";
    }
    i++;
  }
  const top = stack[stack.length - 1];
  if (!top) return null;
  const collections = Object.keys(schema);
  const inRoot = stack.length >= 1 && stack.filter((f) => f.kind === "{").length === 1 && top.kind === "{";
  if (inRoot) return { words: ROOT, type: "keyword" };
  if (top.kind === "{" && (top.owner === "Get" || top.owner === "Aggregate")) return { words: collections, type: "class" };
  if (top.kind === "{" && top.owner === "_additional") return { words: ADDITIONAL, type: "property" };
  const collection = [...stack].reverse().find((f) => f.owner in schema)?.owner;
  if (top.kind === "(" && top.owner in schema) return { words: SEARCH_OPERATORS, type: "function" };
  if (top.kind === "[" && /path:\s*\[[^\]]*$/.test(text) && collection) return { words: schema[collection], type: "property" };
  if (top.kind === "{" && top.owner in schema) {
    const inAggregate = stack.some((f) => f.owner === "Aggregate");
    return { words: inAggregate ? ["meta", ...schema[top.owner]] : [...schema[top.owner], "_additional"], type: "property" };
  }
  return null;
}

/** graphqlCompletion completes from the schema the getter returns at the time of asking. */
export function graphqlCompletion(schema: () => EditorSchema) {
  return (ctx: CompletionContext): CompletionResult | null => {
    const word = ctx.matchBefore(/\w*/);
    if (!word || (word.from === word.to && !ctx.explicit)) return null;
    const doc = ctx.state.doc.toString();
    const stmt = statementAt(doc, word.from);
    const before = doc.slice(stmt && stmt.from <= word.from ? stmt.from : 0, word.from);
    const scope = completionScope(before, schema());
    if (!scope) return null;
    return { from: word.from, options: scope.words.map((label) => ({ label, type: scope.type })), validFor: /^\w*$/ };
  };
}
