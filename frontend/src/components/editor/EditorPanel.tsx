import { autocompletion, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching, HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { Compartment, EditorState, Prec } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, placeholder } from "@codemirror/view";
import { tags as t } from "@lezer/highlight";
import { useCallback, useEffect, useRef, useState } from "react";
import { parseApiError, useApi, type Connection, type Template } from "../../api";
import type { EditorSchema } from "./schema";
import { editorLanguage } from "../../drivers";
import { errorPosition, statementAt, type Statement } from "./statements";
import { Icon, Play } from "../icons";
import { HistoryList, SavedList } from "./EditorSide";
import { ResultPane, type Outcome } from "./ResultPane";
import { isVector } from "../grid/columnKinds";
import "./editor.css";

/** The text of each connection's editor, kept while its tab is closed or hidden. */
const drafts = new Map<string, string>();
/** The last finished run of each connection's editor, shown again when its tab comes back. */
const lastOutcome = new Map<string, Outcome>();

const highlight = HighlightStyle.define([
  { tag: t.keyword, color: "var(--accent)", fontWeight: "600" },
  { tag: t.typeName, color: "#b0651b" },
  { tag: t.propertyName, color: "#2f7d8c" },
  { tag: t.string, color: "#3a8a3a" },
  { tag: t.number, color: "#b03a8a" },
  { tag: t.comment, color: "var(--faint)", fontStyle: "italic" },
  { tag: t.special(t.variableName), color: "#8a5bd6" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13px", backgroundColor: "var(--surface)", color: "var(--text)" },
  ".cm-content": { fontFamily: "var(--mono, ui-monospace, monospace)", caretColor: "var(--text)" },
  ".cm-gutters": { backgroundColor: "var(--surface)", color: "var(--faint)", borderRight: "1px solid var(--border)" },
  "&.cm-focused": { outline: "none" },
  ".cm-tooltip": { backgroundColor: "var(--surface)", border: "1px solid var(--border)" },
  ".cm-tooltip-autocomplete ul li[aria-selected]": { backgroundColor: "var(--accent-soft)", color: "var(--text)" },
});

interface Props {
  connection: Connection;
  /** The text a new editor starts with (tests); else the draft kept for the connection. */
  initialText?: string;
  /** ready: the connection is open (the schema for completion is read again when it opens). */
  ready?: boolean;
  /** The driver's query language (Capabilities.queryLanguage): its syntax and completion; "" plain text. */
  language?: string;
}

/**
 * EditorPanel is a connection's query editor: statements in its driver's language (the
 * grammar and completion drivers/index.ts has for it) in CodeMirror 6,
 * Ctrl/Cmd+Enter runs the statement under the cursor (statements are separated by blank
 * lines; a selection runs as it is), Cancel stops it. A Get answers a grid, anything else
 * collapsible JSON; errors show inline and, with a position, underlined in the text. History
 * (searchable) and saved queries are per connection.
 */
export function EditorPanel({ connection, initialText, ready = true, language = "" }: Props) {
  const api = useApi();
  const id = connection.id;
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const schema = useRef<EditorSchema>({});
  const functions = useRef<string[]>([]);
  // The language's syntax and completion, swapped in place when the driver says its language.
  const languageSlot = useRef(new Compartment());
  // The template menu: the driver's statements for the first table (none until it answers).
  const [templates, setTemplates] = useState<Template[]>([]);
  const [outcome, setOutcomeState] = useState<Outcome>(() => lastOutcome.get(connection.id) ?? { status: "idle" });
  const setOutcome = useCallback(
    (o: Outcome) => {
      if (o.status !== "running") lastOutcome.set(connection.id, o);
      setOutcomeState(o);
    },
    [connection.id],
  );
  const running = outcome.status === "running";
  const runRef = useRef<(all?: boolean) => void>(() => {});
  const [side, setSide] = useState<"history" | "saved" | null>(null);

  // The live schema for completion: collections, then each one's properties.
  useEffect(() => {
    let live = true;
    if (!ready) return;
    void (async () => {
      try {
        const tables = await api.explorer.listTables(id);
        if (!live) return;
        api.editor.templates(id, tables[0]?.name ?? "").then(
          (ts) => live && setTemplates(ts),
          () => {
            // A driver that cannot say: the menu stays empty.
          },
        );
        // The tables complete at once; then the driver's own words when it names them (every
        // column, the functions), else each table's described columns.
        const next: EditorSchema = {};
        for (const tb of tables) next[tb.name] = [];
        schema.current = next;
        const words = await api.editor.completions(id).catch(() => null);
        if (!live) return;
        if (words?.named) {
          schema.current = words.tables;
          functions.current = words.functions;
          return;
        }
        for (const tb of tables) {
          try {
            const info = await api.explorer.describeTable(id, tb.name);
            next[tb.name] = info.columns.filter((c) => !c.primaryKey && !isVector(c)).map((c) => c.name);
          } catch {
            // A collection that cannot be described still completes by name.
          }
          if (!live) return;
        }
      } catch {
        // Not connected: no completion from the schema, and templates for no table chosen.
        api.editor.templates(id, "").then(
          (ts) => live && setTemplates(ts),
          () => {},
        );
      }
    })();
    return () => {
      live = false;
    };
  }, [api, id, ready]);

  /** run runs the selection, else the statement under the cursor; all: the whole text. */
  const run = useCallback(async (all = false) => {
    const v = view.current;
    if (!v || running) return;
    const doc = v.state.doc.toString();
    const sel = v.state.selection.main;
    const stmt: Statement | null = all
      ? { from: 0, to: doc.length, text: doc }
      : sel.empty
        ? statementAt(doc, sel.head)
        : { from: sel.from, to: sel.to, text: doc.slice(sel.from, sel.to) };
    if (!stmt || stmt.text.trim() === "") return;
    v.dispatch(setDiagnostics(v.state, []));
    setOutcome({ status: "running", text: stmt.text });
    try {
      const result = await api.editor.run(id, stmt.text);
      setOutcome({ status: "done", text: stmt.text, result });
    } catch (reason) {
      const error = parseApiError(reason);
      setOutcome({ status: "error", text: stmt.text, error });
      const cur = view.current;
      // The text may have changed while the statement ran: underline it where it is now.
      const now = cur && error.code !== "cancelled" ? placeOf(cur.state.doc.toString(), stmt) : null;
      if (cur && now) cur.dispatch(setDiagnostics(cur.state, [diagnosticFor(cur, now, error.message)]));
    }
  }, [api, id, running, setOutcome]);
  runRef.current = (all = false) => void run(all);

  // The CodeMirror view, made once per connection.
  useEffect(() => {
    if (!host.current) return;
    const state = EditorState.create({
      doc: initialText ?? drafts.get(id) ?? "",
      extensions: [
        Prec.highest(
          keymap.of([
            { key: "Mod-Enter", run: () => (runRef.current(), true) },
            { key: "Shift-Mod-Enter", run: () => (runRef.current(true), true) },
          ]),
        ),
        lineNumbers(),
        history(),
        bracketMatching(),
        languageSlot.current.of(languageExtensions(language, () => schema.current, () => functions.current)),
        syntaxHighlighting(highlight),
        keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
        placeholder("A statement in the connection's language (Templates… inserts one) — Ctrl+Enter runs the statement under the cursor"),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) drafts.set(id, u.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ "aria-label": `Query editor for ${connection.name}` }),
        theme,
      ],
    });
    const v = new EditorView({ state, parent: host.current });
    view.current = v;
    v.focus();
    return () => {
      v.destroy();
      view.current = null;
    };
    // initialText and the name only matter when the view is made.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  // A language learnt after the view was made (the connection opened) replaces plain text.
  useEffect(() => {
    view.current?.dispatch({ effects: languageSlot.current.reconfigure(languageExtensions(language, () => schema.current, () => functions.current)) });
  }, [language]);

  /** insert puts text in as a new statement after the current text and selects it. */
  const insert = (text: string) => {
    const v = view.current;
    if (!v) return;
    const doc = v.state.doc.toString();
    const sep = doc.trim() === "" ? "" : doc.endsWith("\n\n") ? "" : doc.endsWith("\n") ? "\n" : "\n\n";
    const from = doc.trim() === "" ? 0 : doc.length + sep.length;
    v.dispatch({
      changes: doc.trim() === "" ? { from: 0, to: doc.length, insert: text } : { from: doc.length, insert: sep + text },
      selection: { anchor: from + text.length },
    });
    v.focus();
  };

  const currentText = () => {
    const v = view.current;
    if (!v) return "";
    const doc = v.state.doc.toString();
    return statementAt(doc, v.state.selection.main.head)?.text ?? "";
  };

  return (
    <section className="panel panel--editor" aria-label={`Query ${connection.name}`}>
      <header className="editor-bar">
        <h2 className="panel__title">Query · {connection.name}</h2>
        <span className="panel__spacer" />
        <select
          className="input input--small"
          aria-label="Insert a template"
          value=""
          disabled={templates.length === 0}
          onChange={(e) => {
            const tpl = templates.find((x) => x.name === e.target.value);
            if (tpl) insert(tpl.text);
          }}
        >
          <option value="">Templates…</option>
          {templates.map((tpl) => (
            <option key={tpl.name} value={tpl.name}>
              {tpl.name}
            </option>
          ))}
        </select>
        <button type="button" className="btn btn--small" aria-pressed={side === "history"} onClick={() => setSide(side === "history" ? null : "history")}>
          History
        </button>
        <button type="button" className="btn btn--small" aria-pressed={side === "saved"} onClick={() => setSide(side === "saved" ? null : "saved")}>
          Saved
        </button>
        {running ? (
          <button type="button" className="btn btn--small btn--danger" onClick={() => void api.editor.cancel(id)}>
            Cancel
          </button>
        ) : (
          <button type="button" className="btn btn--small btn--primary" title="Run the statement under the cursor (Ctrl+Enter); the whole text: Ctrl+Shift+Enter" onClick={() => void run()}>
            Run <Icon icon={Play} size={12} />
          </button>
        )}
      </header>
      <div className="editor-main">
        <div className="editor-host" ref={host} />
        {side === "history" && <HistoryList connectionId={id} onPick={insert} refresh={outcome} />}
        {side === "saved" && <SavedList connectionId={id} onPick={insert} current={currentText} />}
      </div>
      <ResultPane outcome={outcome} />
    </section>
  );
}

/** placeOf finds a statement that was run in the text as it is now: where it was, or its one copy elsewhere. */
function placeOf(doc: string, stmt: Statement): Statement | null {
  if (doc.slice(stmt.from, stmt.to) === stmt.text) return stmt;
  const i = doc.indexOf(stmt.text);
  if (i < 0 || doc.indexOf(stmt.text, i + 1) >= 0) return null;
  return { ...stmt, from: i, to: i + stmt.text.length };
}

/** diagnosticFor underlines the error's position in the statement, or the whole statement. */
function diagnosticFor(v: EditorView, stmt: Statement, message: string): Diagnostic {
  const pos = errorPosition(message);
  const docLen = v.state.doc.length;
  let from = Math.min(stmt.from, docLen);
  let to = Math.min(stmt.to, docLen);
  if (pos) {
    const firstLine = v.state.doc.lineAt(from).number;
    const lineNo = firstLine + pos.line - 1;
    if (lineNo <= v.state.doc.lines) {
      const line = v.state.doc.line(lineNo);
      from = Math.min(line.from + pos.column - 1 + (pos.line === 1 ? stmt.from - line.from : 0), line.to);
      to = Math.min(from + 1, line.to);
      if (to <= from) {
        from = Math.max(line.from, from - 1);
        to = line.to;
      }
    }
  }
  return { from, to: Math.max(to, from), severity: "error", message };
}

/** languageExtensions are the editor's syntax and completion for the driver's language. */
function languageExtensions(name: string, schema: () => EditorSchema, functions: () => string[]) {
  const lang = editorLanguage(name);
  return [lang.syntax, autocompletion({ override: [lang.completion(schema, functions)] })];
}
