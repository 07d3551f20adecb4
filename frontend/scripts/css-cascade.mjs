// css-cascade.mjs: proves that two builds of the stylesheet style the window the same, for a
// change that only moves rules between files (issue 43, item 6: one sheet per area).
//
// It reads two built sheets (dist/assets/*.css of `npx vite build`), breaks every rule into
// its atoms (the @media/@supports context, one selector of the rule's list, one declaration)
// and checks two things:
//   1. the same atoms, as a multiset: nothing lost, added or changed, whatever the files;
//   2. the cascade's order where it decides: every two atoms whose order flipped between the
//      builds are listed if they could meet on one element and then the later one would win
//      where the earlier one won before: properties that overlap (a shorthand and its longhands
//      count), different values, the same !important, the same specificity, and subject compounds
//      (the part right of the last combinator) that one element could match: no differing tag or
//      pseudo-element and, with --src, classes that could sit on one element (below). What it
//      lists is for a person to judge, or to name in --allow with the reason they never meet.
// With --src DIR, two classes could sit on one element if some className in the .tsx files
// under DIR (tests left out) could give both: its string literals, those of the consts and
// functions of its file it names (GridRow's cellClass), "icon" on an <Icon>, a component's
// default className; a word ending in -- or __ before ${...} stands for every class it starts.
// A class no className gives (CodeMirror's) could sit with any. Without --src, any two could.
// Esbuild's minifier merges or splits adjacent rules depending on their neighbours, which is why
// the check counts atoms and not whole rules.
//
// Usage: node scripts/css-cascade.mjs BEFORE.css AFTER.css [--src src] [--allow ALLOW.json]
//   BEFORE.css: built from the old tree (git worktree add /tmp/old <rev>, a link to this
//   node_modules in /tmp/old/frontend, npx vite build --outDir /tmp/before there), AFTER.css from
//   this one. postcss comes with Vite. ALLOW.json: [{"a": selector,
//   "b": selector, "why": "..."}], pairs judged harmless, as the built sheet spells them (no "b":
//   every pair of "a"). Exits 1 if an atom differs or a pair is left unjudged.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import postcss from "postcss";

const args = process.argv.slice(2);
const flags = {};
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i].startsWith("--")) flags[args[i].slice(2)] = args[++i];
  else files.push(args[i]);
}
const allow = flags.allow ? JSON.parse(readFileSync(flags.allow, "utf8")) : [];
const [beforeFile, afterFile] = files;
if (!beforeFile || !afterFile) {
  console.error("usage: node scripts/css-cascade.mjs BEFORE.css AFTER.css [--src src] [--allow ALLOW.json]");
  process.exit(2);
}

// together(a, b): could classes a and b sit on one element (see --src above)?
const elements = []; // per className in the source: {words: Set, prefixes: []}
if (flags.src) {
  const walk = (dir) => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
  for (const f of walk(flags.src).filter((f) => f.endsWith(".tsx") && !f.endsWith(".test.tsx"))) elements.push(...classNames(readFileSync(f, "utf8")));
}

// balanced returns the end of the bracketed text that opens at text[i].
function balanced(text, i) {
  const open = text[i], close = { "{": "}", "(": ")", "[": "]" }[open];
  for (let depth = 0; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close && --depth === 0) return i + 1;
  }
  return text.length;
}

// words reads the class words of an expression's string literals, and those of the consts and
// functions of the file it names.
function words(expr, text, out, seen) {
  for (const m of expr.matchAll(/"([^"\n]*)"|'([^'\n]*)'|`([^`]*)`/g)) {
    if (m[3] !== undefined) for (const [, inner] of m[3].matchAll(/\$\{([^}]*)\}/g)) words(inner, text, out, seen);
    const body = (m[1] ?? m[2] ?? m[3]).replace(/\$\{[^}]*\}/g, " ${ ");
    const toks = body.split(/\s+/);
    toks.forEach((t, k) => {
      if (/^[A-Za-z_][\w-]*(--|__)\$\{$/.test(t + (toks[k + 1] ?? ""))) out.prefixes.push(t);
      else if (/^-?[A-Za-z_][\w-]*$/.test(t)) out.words.add(t);
    });
  }
  const code = expr.replace(/"[^"\n]*"|'[^'\n]*'|`[^`]*`/g, " ");
  for (const [name] of code.matchAll(/\b[A-Za-z_]\w*\b/g)) {
    if (seen.has(name)) continue;
    seen.add(name);
    const def = new RegExp(`(?:const|let)\\s+${name}\\s*=|function\\s+${name}\\s*\\(`).exec(text);
    if (!def) continue;
    let end = def.index;
    if (def[0].startsWith("function")) end = balanced(text, text.indexOf("{", def.index));
    else {
      for (let i = def.index + def[0].length, depth = 0; i < text.length; i++, end = i) {
        if ("{([".includes(text[i])) depth++;
        else if ("})]".includes(text[i])) depth--;
        else if (text[i] === ";" && depth === 0) break;
      }
    }
    words(text.slice(def.index + def[0].length, end), text, out, seen);
  }
  return out;
}

// classNames lists what each className of a file could give one element.
function classNames(text) {
  const out = [];
  for (const m of text.matchAll(/className=(?=["{])/g)) {
    const at = m.index + m[0].length;
    const expr = text[at] === '"' ? text.slice(at, text.indexOf('"', at + 1) + 1) : text.slice(at, balanced(text, at));
    const el = words(expr, text, { words: new Set(), prefixes: [] }, new Set());
    if (/^<Icon\b/.test(text.slice(text.lastIndexOf("<", m.index), m.index))) el.words.add("icon");
    out.push(el);
  }
  for (const m of text.matchAll(/className = ("[^"]*")/g)) out.push(words(m[1], text, { words: new Set(), prefixes: [] }, new Set()));
  for (const m of text.matchAll(/<Icon\b[^>]*>/g)) if (!m[0].includes("className")) out.push({ words: new Set(["icon"]), prefixes: [] });
  return out;
}

const gives = (el, c) => el.words.has(c) || el.prefixes.some((p) => c.startsWith(p));
function together(a, b) {
  if (!flags.src || a === b) return true;
  const withA = elements.filter((el) => gives(el, a));
  if (!withA.length || !elements.some((el) => gives(el, b))) return true;
  return withA.some((el) => gives(el, b));
}

// atoms lists a sheet's atoms in document order: {ctx, sel, prop, value, important, pos, key}.
function atoms(file) {
  const out = [];
  let pos = 0;
  postcss.parse(readFileSync(file, "utf8")).walkRules((rule) => {
    const ctx = [];
    for (let p = rule.parent; p && p.type !== "root"; p = p.parent) {
      if (p.type === "atrule") ctx.unshift(`@${p.name} ${p.params.replace(/\s+/g, " ").trim()}`);
    }
    const context = ctx.join(" ");
    rule.each((decl) => {
      if (decl.type !== "decl") return;
      for (const sel of rule.selectors) {
        const a = {
          ctx: context,
          sel: sel.replace(/\s+/g, " ").trim(),
          prop: decl.prop.toLowerCase(),
          value: decl.value.replace(/\s+/g, " ").trim(),
          important: Boolean(decl.important),
          pos: pos++,
        };
        a.key = `${a.ctx} | ${a.sel} | ${a.prop}: ${a.value}${a.important ? " !important" : ""}`;
        out.push(a);
      }
    });
  });
  return out;
}

// splitTop splits s at the top level (outside (), [] and quotes) where at(s, i) says so.
function splitTop(s, at) {
  const parts = [];
  let depth = 0, quote = "", start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) { if (c === "\\") i++; else if (c === quote) quote = ""; continue; }
    if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (depth === 0) {
      const n = at(s, i);
      if (n) { parts.push(s.slice(start, i)); start = i + n; i += n - 1; }
    }
  }
  parts.push(s.slice(start));
  return parts;
}

// compounds splits a complex selector at its combinators.
function compounds(sel) {
  const norm = sel.replace(/\s*([>+~])\s*/g, "$1").trim();
  return splitTop(norm, (s, i) => (" >+~".includes(s[i]) ? 1 : 0)).filter(Boolean);
}

// parts reads one compound: its tag, and the simple selectors after it.
function parts(compound) {
  const m = /^(\*|[A-Za-z][\w-]*)?/.exec(compound);
  const tag = m[1] && m[1] !== "*" ? m[1].toLowerCase() : "";
  const rest = compound.slice(m[0].length);
  const simple = [];
  let i = 0;
  while (i < rest.length) {
    let j = i + 1;
    if (rest[i] === "[") { let d = 1; while (j < rest.length && d) { if (rest[j] === "[") d++; if (rest[j] === "]") d--; j++; } }
    else {
      if (rest[i] === ":" && rest[j] === ":") j++;
      while (j < rest.length && /[\w-]|\\./.test(rest[j])) j++;
      if (rest[j] === "(") { let d = 1; j++; while (j < rest.length && d) { if (rest[j] === "(") d++; if (rest[j] === ")") d--; j++; } }
    }
    simple.push(rest.slice(i, j));
    i = j;
  }
  return { tag, simple };
}

const LEGACY_ELEMENTS = new Set([":before", ":after", ":first-line", ":first-letter"]);
const isPseudoElement = (s) => s.startsWith("::") || LEGACY_ELEMENTS.has(s.toLowerCase());

// specificity of one complex selector, as [ids, classes, types].
function specificity(sel) {
  const sp = [0, 0, 0];
  const add = (o) => { sp[0] += o[0]; sp[1] += o[1]; sp[2] += o[2]; };
  for (const c of compounds(sel)) {
    const { tag, simple } = parts(c);
    if (tag) sp[2]++;
    for (const s of simple) {
      if (s.startsWith("#")) sp[0]++;
      else if (s.startsWith(".") || s.startsWith("[")) sp[1]++;
      else if (isPseudoElement(s)) sp[2]++;
      else if (/^:(where)\(/i.test(s)) continue;
      else if (/^:(not|is|has)\(/i.test(s)) {
        // the most specific selector of the argument list
        const inner = s.slice(s.indexOf("(") + 1, -1);
        const best = splitTop(inner, (t, k) => (t[k] === "," ? 1 : 0))
          .map((x) => specificity(x.trim()))
          .sort((x, y) => y[0] - x[0] || y[1] - x[1] || y[2] - x[2])[0];
        if (best) add(best);
      } else if (s.startsWith(":")) sp[1]++;
    }
  }
  return sp;
}

// subject is what an element must be to match the selector's last compound.
function subject(sel) {
  const all = compounds(sel);
  const { tag, simple } = parts(all[all.length - 1]);
  return {
    tag,
    element: simple.filter(isPseudoElement).join("").toLowerCase(),
    classes: simple.filter((s) => s.startsWith(".")).map((s) => s.slice(1)),
  };
}

// mayMeet: could one element match both subjects?
const mayMeet = (a, b) =>
  a.element === b.element &&
  (!a.tag || !b.tag || a.tag === b.tag) &&
  a.classes.every((x) => b.classes.every((y) => together(x, y)));

// group names what a property sets, so that a shorthand and its longhands compare equal.
function group(prop) {
  if (prop.startsWith("--")) return prop;
  const p = prop.replace(/^-(webkit|moz|ms)-/, "");
  if (["top", "right", "bottom", "left", "inset"].includes(p) || p.startsWith("inset-")) return "inset";
  if (["gap", "row-gap", "column-gap", "grid-gap"].includes(p)) return "gap";
  if (p === "line-height" || p === "font" || p.startsWith("font-")) return "font";
  if (p.startsWith("border-radius") || /^border-(top|bottom)-(left|right)-radius$/.test(p)) return "border-radius";
  if (p === "border-collapse" || p === "border-spacing") return p;
  if (p.startsWith("border")) return "border";
  if (["flex-direction", "flex-wrap", "flex-flow"].includes(p)) return "flex-flow";
  if (["flex", "flex-grow", "flex-shrink", "flex-basis"].includes(p)) return "flex";
  for (const g of ["margin", "padding", "background", "outline", "overflow", "text-decoration", "list-style",
    "transition", "animation", "mask", "grid-template", "grid-column", "grid-row", "white-space", "columns"]) {
    if (p === g || p.startsWith(g + "-")) return g;
  }
  return p;
}

const before = atoms(beforeFile);
const after = atoms(afterFile);
let failed = false;

// 1. The same atoms. Equal keys are paired in order, so a repeated atom keeps its identity.
const byKey = new Map();
for (const a of after) {
  if (!byKey.has(a.key)) byKey.set(a.key, []);
  byKey.get(a.key).push(a);
}
const pairs = [];
const lost = [];
for (const a of before) {
  const list = byKey.get(a.key);
  if (list && list.length) pairs.push([a, list.shift()]);
  else lost.push(a);
}
const added = [...byKey.values()].flat();
for (const a of lost) console.log(`only before: ${a.key}`);
for (const a of added) console.log(`only after:  ${a.key}`);
if (lost.length || added.length) failed = true;
console.log(`${before.length} atoms before, ${after.length} after; ${pairs.length} in both, ${lost.length} only before, ${added.length} only after`);

// 2. The order where it decides.
const facts = pairs.map(([b, a]) => ({
  b, a,
  group: group(b.prop),
  spec: specificity(b.sel).join(","),
  subj: subject(b.sel),
}));
const allowed = (x, y) =>
  allow.find((p) => [[x, y], [y, x]].some(([u, v]) => p.a === u.b.sel && (p.b === undefined || p.b === v.b.sel)));
const found = new Map();
let flipped = 0;
for (let i = 0; i < facts.length; i++) {
  for (let j = i + 1; j < facts.length; j++) {
    const x = facts[i], y = facts[j];
    if ((x.b.pos < y.b.pos) === (x.a.pos < y.a.pos)) continue;
    flipped++;
    if (x.group !== y.group || x.spec !== y.spec || x.b.important !== y.b.important) continue;
    if (x.b.ctx.startsWith("@keyframes") || y.b.ctx.startsWith("@keyframes")) continue;
    if (x.b.prop === y.b.prop && x.b.value === y.b.value) continue;
    if (!mayMeet(x.subj, y.subj)) continue;
    const [first, second] = x.b.pos < y.b.pos ? [x, y] : [y, x];
    const id = `${first.b.sel}  <>  ${second.b.sel}`;
    if (!found.has(id)) found.set(id, { first, second, props: new Set(), why: allowed(x, y) });
    found.get(id).props.add(`${first.b.prop}: ${first.b.value} / ${second.b.prop}: ${second.b.value}`);
  }
}
let judged = 0;
for (const [id, f] of found) {
  if (f.why) { judged++; continue; }
  failed = true;
  console.log(`order flipped, may decide: ${id}  (specificity ${f.first.spec}${f.first.b.ctx ? ", " + f.first.b.ctx : ""})`);
  for (const p of f.props) console.log(`    ${p}`);
}
console.log(`${flipped} atom pairs changed order; ${found.size} could decide the cascade, ${judged} of them judged harmless in --allow`);
const unused = allow.filter((p) => ![...found.values()].some((f) => f.why === p));
for (const p of unused) console.log(`--allow names a pair that no longer flips: ${p.a} <> ${p.b ?? "any"}`);
process.exit(failed ? 1 : 0);
