// Statements of the editor text: separated by blank lines (a line of only whitespace). The
// statement under the cursor is the block holding it; on a blank line, the block above.

export interface Statement {
  from: number;
  to: number;
  text: string;
}

/** splitStatements returns the non-blank blocks of text with their offsets. */
export function splitStatements(text: string): Statement[] {
  const out: Statement[] = [];
  let start = -1;
  let end = -1;
  let pos = 0;
  for (const line of text.split("\n")) {
    const lineEnd = pos + line.length;
    if (line.trim() === "") {
      if (start >= 0) out.push({ from: start, to: end, text: text.slice(start, end) });
      start = -1;
    } else {
      if (start < 0) start = pos;
      end = lineEnd;
    }
    pos = lineEnd + 1;
  }
  if (start >= 0) out.push({ from: start, to: end, text: text.slice(start, end) });
  return out;
}

/** statementAt returns the statement at pos (the nearest one above on a blank line, else below), or null. */
export function statementAt(text: string, pos: number): Statement | null {
  const all = splitStatements(text);
  if (all.length === 0) return null;
  let best: Statement | null = null;
  for (const s of all) {
    if (pos >= s.from && pos <= s.to) return s;
    if (s.to < pos) best = s;
  }
  return best ?? all[0];
}

/** errorPosition reads "(line L, column C)" from an error message: 1-based, or null. */
export function errorPosition(message: string): { line: number; column: number } | null {
  const m = /\(line (\d+), column (\d+)\)/.exec(message);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : null;
}
