// JsonView shows a JSON document formatted and collapsible: every object and array is a
// <details> (open to start, so the whole document shows) whose summary gives its size.

import "./editor.css";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function Leaf({ value }: { value: Json }) {
  if (value === null) return <span className="json__null">null</span>;
  if (typeof value === "string") return <span className="json__string">{JSON.stringify(value)}</span>;
  if (typeof value === "number") return <span className="json__number">{String(value)}</span>;
  return <span className="json__bool">{String(value)}</span>;
}

function Node({ name, value, depth }: { name?: string; value: Json; depth: number }) {
  const label = name !== undefined && <span className="json__key">{JSON.stringify(name)}: </span>;
  if (value === null || typeof value !== "object") {
    return (
      <div className="json__row">
        {label}
        <Leaf value={value} />
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries: [string | undefined, Json][] = isArray
    ? value.map((v) => [undefined, v])
    : Object.entries(value);
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) {
    return (
      <div className="json__row">
        {label}
        {open + close}
      </div>
    );
  }
  const size = isArray ? `${entries.length} ${entries.length === 1 ? "item" : "items"}` : `${entries.length} ${entries.length === 1 ? "key" : "keys"}`;
  return (
    <details className="json__node" open={depth < 6}>
      <summary>
        {label}
        {open}
        <span className="json__size"> {size} </span>
      </summary>
      <div className="json__children">
        {entries.map(([k, v], i) => (
          <Node key={k ?? i} name={k} value={v} depth={depth + 1} />
        ))}
      </div>
      <div className="json__row">{close}</div>
    </details>
  );
}

/** JsonView renders text as a collapsible tree; text that is not JSON shows as it is. */
export function JsonView({ text }: { text: string }) {
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return <pre className="json json--raw">{text}</pre>;
  }
  return (
    <div className="json" role="region" aria-label="JSON result">
      <Node value={value} depth={0} />
    </div>
  );
}
