import { Fragment, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import type { Column, Filter, FilterRefusal } from "../../api";
import {
  arity,
  describeFilter,
  describeFilters,
  familyOf,
  fromPicker,
  joinedWithPrevious,
  operatorChoices,
  toggleJoin,
  toPicker,
  unfilterableReason,
  validateFilter,
} from "./filterModel";
import { Icon, X } from "../icons";
import "./grid.css";

/** Which filter the editor is open on: a new one (index -1) or filters[index]. */
export interface EditorTarget {
  index: number;
  column: string;
}

interface BarProps {
  columns: Column[];
  filters: Filter[];
  /** The refusal of the current page, shown at the filter it names. */
  refused: FilterRefusal | null;
  editing: EditorTarget | null;
  onEdit: (t: EditorTarget | null) => void;
  onChange: (filters: Filter[]) => void;
  /** settingLink renders a link to the collection setting a refusal's reason names, if any. */
  settingLink?: (reason: string) => ReactNode;
}

/**
 * FilterBar shows the applied filters as chips, each with the reason when the database
 * refused it, and the editor for a new or changed filter. Between two chips a word says how
 * they combine, "and" or "or" (issue 23), and a click on it switches: a run of chips joined by
 * "or" is one group, and the groups all hold.
 */
export function FilterBar({ columns, filters, refused, editing, onEdit, onChange, settingLink }: BarProps) {
  const filterable = columns.filter((c) => c.filterable.length > 0);
  const addRef = useRef<HTMLButtonElement>(null);
  const close = () => {
    onEdit(null);
    addRef.current?.focus();
  };
  const editingColumn = editing ? columns.find((c) => c.name === editing.column) : undefined;
  return (
    <div className="filter-bar">
      <ul className="filter-bar__chips" aria-label="Filters">
        {filters.map((f, i) => {
          const why = refused && refused.index === i ? refused : null;
          const or = joinedWithPrevious(filters, i);
          return (
            <Fragment key={i}>
              {i > 0 && (
                <li className="filter-bar__join-item">
                  <button
                    type="button"
                    className="filter-bar__join"
                    data-or={or || undefined}
                    aria-label={`${or ? "or" : "and"}: combine ${describeFilter(filters[i - 1])} and ${describeFilter(f)} with ${or ? "and" : "or"} instead`}
                    onClick={() => onChange(toggleJoin(filters, i))}
                  >
                    {or ? "or" : "and"}
                  </button>
                </li>
              )}
            <li className={`filter-chip${why ? " filter-chip--refused" : ""}`}>
              <button
                type="button"
                className="filter-chip__text"
                aria-label={`Edit filter ${describeFilter(f)}`}
                onClick={() => onEdit({ index: i, column: f.column })}
              >
                {describeFilter(f)}
              </button>
              <button
                type="button"
                className="filter-chip__remove"
                aria-label={`Remove filter ${describeFilter(f)}`}
                onClick={() => onChange(filters.filter((_, j) => j !== i))}
              >
                <Icon icon={X} />
              </button>
              {why && (
                <p className="filter-chip__reason" role="alert">
                  Cannot run: {why.reason} {settingLink?.(why.reason)}
                </p>
              )}
            </li>
            </Fragment>
          );
        })}
        {filters.length > 1 && (
          <li className="visually-hidden" role="status">
            Rows where {describeFilters(filters)}
          </li>
        )}
      </ul>
      <button
        ref={addRef}
        type="button"
        className="btn btn--small"
        disabled={filterable.length === 0}
        title={filterable.length === 0 ? "No column of this table can be filtered" : undefined}
        onClick={() => onEdit({ index: -1, column: filterable[0]?.name ?? "" })}
      >
        + Filter
      </button>
      {filters.length > 0 && (
        <button type="button" className="btn btn--small btn--ghost" onClick={() => onChange([])}>
          Clear filters
        </button>
      )}
      {refused && refused.index < 0 && (
        <p className="filter-bar__refused" role="alert">
          A filter cannot run: {refused.reason} {settingLink?.(refused.reason)}
        </p>
      )}
      {editing && editingColumn && (
        <FilterEditor
          key={`${editing.index}:${editing.column}`}
          columns={columns}
          initial={
            editing.index >= 0 && filters[editing.index]
              ? filters[editing.index]
              : { column: editing.column, operator: "", value: "", value2: "" }
          }
          onCancel={close}
          settingLink={settingLink}
          onApply={(f) => {
            const next = editing.index >= 0 ? filters.map((g, j) => (j === editing.index ? f : g)) : [...filters, f];
            onEdit(null);
            onChange(next);
            addRef.current?.focus();
          }}
        />
      )}
    </div>
  );
}

interface EditorProps {
  columns: Column[];
  initial: Filter;
  onApply: (f: Filter) => void;
  onCancel: () => void;
  settingLink?: (reason: string) => ReactNode;
}

/**
 * FilterEditor edits one filter: the column, the operators that column's type offers (the
 * unavailable ones marked, with the reason once chosen), and the value(s), checked as they
 * are typed. Enter applies, Escape cancels.
 */
export function FilterEditor({ columns, initial, onApply, onCancel, settingLink }: EditorProps) {
  const id = useId();
  const filterable = columns.filter((c) => c.filterable.length > 0);
  const [f, setF] = useState<Filter>(() => {
    const col = columns.find((c) => c.name === initial.column) ?? filterable[0];
    const choices = col ? operatorChoices(col) : [];
    const op = initial.operator || choices.find((c) => c.available)?.op || "";
    return { ...initial, column: col?.name ?? "", operator: op };
  });
  const firstRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    firstRef.current?.focus();
  }, []);

  const column = columns.find((c) => c.name === f.column);
  const choices = column ? operatorChoices(column) : [];
  const choice = choices.find((c) => c.op === f.operator);
  const ar = arity(f.operator);
  const hint = column ? validateFilter(column, f) : "";
  const fam = column ? familyOf(column).family : "other";

  const pickColumn = (name: string) => {
    const col = columns.find((c) => c.name === name);
    const cs = col ? operatorChoices(col) : [];
    const keep = cs.find((c) => c.op === f.operator);
    setF({ ...f, column: name, operator: keep ? f.operator : cs.find((c) => c.available)?.op ?? "" });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!column || !f.operator) return;
    onApply(f);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };

  const valueInput = (which: "value" | "value2", label: string) => (
    <span className="filter-editor__value">
      <label className="visually-hidden" htmlFor={`${id}-${which}`}>
        {label}
      </label>
      <input
        id={`${id}-${which}`}
        className="input input--small"
        value={f[which]}
        placeholder={placeholder(fam, ar)}
        spellCheck={false}
        aria-invalid={hint !== "" || undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setF({ ...f, [which]: e.target.value })}
      />
      {fam === "date" && (
        <input
          type="datetime-local"
          step={1}
          className="input input--small filter-editor__picker"
          aria-label={`${label}: pick a date and time (UTC)`}
          value={toPicker(f[which])}
          onChange={(e) => setF({ ...f, [which]: fromPicker(e.target.value) })}
        />
      )}
    </span>
  );

  return (
    <form className="filter-editor" aria-label="Edit filter" onSubmit={submit} onKeyDown={onKeyDown}>
      <label className="visually-hidden" htmlFor={`${id}-col`}>
        Column
      </label>
      <select id={`${id}-col`} ref={firstRef} className="input input--small" value={f.column} onChange={(e) => pickColumn(e.target.value)}>
        {columns.map((c) => (
          <option key={c.name} value={c.name} disabled={c.filterable.length === 0} title={unfilterableReason(c) || undefined}>
            {c.name} ({c.type})
          </option>
        ))}
      </select>
      <label className="visually-hidden" htmlFor={`${id}-op`}>
        Operator
      </label>
      <select id={`${id}-op`} className="input input--small" value={f.operator} onChange={(e) => setF({ ...f, operator: e.target.value })}>
        {choices.map((c) => (
          <option key={c.op} value={c.op}>
            {c.available ? c.label : `${c.label} (unavailable)`}
          </option>
        ))}
      </select>
      {ar === "one" && valueInput("value", "Value")}
      {ar === "list" && valueInput("value", "Values, separated by commas")}
      {ar === "two" && (
        <>
          {valueInput("value", "From (inclusive)")}
          <span className="filter-editor__and">and</span>
          {valueInput("value2", "To (inclusive)")}
        </>
      )}
      <button type="submit" className="btn btn--small btn--primary" disabled={!column || !f.operator}>
        Apply
      </button>
      <button type="button" className="btn btn--small" onClick={onCancel}>
        Cancel
      </button>
      {choice && !choice.available && (
        <p className="filter-editor__reason" role="note">
          Unavailable: {choice.reason} {settingLink?.(choice.reason)}
        </p>
      )}
      {choice?.available && column?.filterNotes?.[f.operator] && (
        <p className="filter-editor__note" role="note">
          {column.filterNotes[f.operator]}
        </p>
      )}
      <p id={`${id}-hint`} className={`filter-editor__hint${hint ? " filter-editor__hint--error" : ""}`} aria-live="polite">
        {hint || hintFor(fam, ar, column)}
      </p>
    </form>
  );
}

function placeholder(fam: string, ar: string): string {
  if (ar === "list") return fam === "int" || fam === "number" ? "1, 2, 3" : "a, b, c";
  switch (fam) {
    case "date":
      return "2024-01-31T00:00:00Z";
    case "int":
      return "integer";
    case "number":
      return "number";
    case "boolean":
      return "true or false";
    case "uuid":
      return "00000000-0000-0000-0000-000000000000";
    default:
      return "text";
  }
}

function hintFor(fam: string, ar: string, column: Column | undefined): string {
  if (!column) return "";
  const arr = familyOf(column).array ? " An array matches when one element does." : "";
  if (ar === "none") return `No value needed.${arr}`;
  if (ar === "list") return `Comma-separated; quote an item to keep a comma in it.${arr}`;
  if (ar === "two") return `Both bounds are inclusive.${fam === "date" ? " Full RFC 3339, e.g. 2024-01-31T00:00:00Z." : ""}`;
  if (fam === "date") return `Full RFC 3339 timestamp, e.g. 2024-01-31T00:00:00Z; the picker writes UTC.${arr}`;
  return arr.trim();
}
