import type { RowKey } from "../../api";
import { keyValueText } from "../../api/rowKey";
import "./search.css";

interface Props {
  /** The table's key columns, in the key's order. */
  primaryKey: string[];
  /** The key as typed so far, by column. */
  value: RowKey;
  onChange: (key: RowKey) => void;
  /** The accessible name of a key column's input (col: null for a one-column key, whose one input is the key). */
  name: (col: string | null) => string;
  /** What an empty input says (col: null for a one-column key). */
  placeholder: (col: string | null) => string;
  className?: string;
}

/**
 * RowKeyFields is where a person types a row's key: for a one-column key one input, whose
 * text is the key ({col: text}); for a key of several columns one labelled input per column.
 * A key given whole (a grid row's) shows in them as it is.
 */
export function RowKeyFields({ primaryKey, value, onChange, name, placeholder, className = "input input--small" }: Props) {
  const one = primaryKey.length === 1;
  const input = (col: string) => (
    <input
      className={className}
      aria-label={name(one ? null : col)}
      value={keyValueText(value[col])}
      onChange={(e) => onChange({ ...value, [col]: e.target.value })}
      placeholder={placeholder(one ? null : col)}
      spellCheck={false}
    />
  );
  if (one) return input(primaryKey[0]);
  return (
    <>
      {primaryKey.map((col) => (
        <label key={col} className="search-form__key">
          {col} {input(col)}
        </label>
      ))}
    </>
  );
}
