import { typeLabel } from "./format";
import "./connections.css";

/** TypeBadge is the small coloured square that identifies a database type. */
export function TypeBadge({ type }: { type: string }) {
  const label = typeLabel(type);
  return (
    <span className="type-badge" data-type={type.toLowerCase()} aria-hidden="true">
      {label.charAt(0)}
    </span>
  );
}
