import { useRef, type KeyboardEvent } from "react";
import "./settings.css";

interface Props<T extends string> {
  sections: readonly { id: T; label: string }[];
  chosen: T;
  onChoose: (id: T) => void;
}

/**
 * SectionList is the Settings page's list of sections, a vertical tablist: Tab reaches the
 * chosen section only, the arrows (and Home, End) move to another and show it at once, as
 * the sections are cheap to switch between.
 */
export function SectionList<T extends string>({ sections, chosen, onChoose }: Props<T>) {
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const onKeyDown = (e: KeyboardEvent) => {
    const at = sections.findIndex((s) => s.id === chosen);
    const last = sections.length - 1;
    const to =
      e.key === "ArrowDown" || e.key === "ArrowRight"
        ? (at + 1) % sections.length
        : e.key === "ArrowUp" || e.key === "ArrowLeft"
          ? (at + last) % sections.length
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? last
              : -1;
    if (to < 0) return;
    e.preventDefault();
    const id = sections[to].id;
    onChoose(id);
    refs.current.get(id)?.focus();
  };
  return (
    <div className="section-list" role="tablist" aria-label="Settings sections" aria-orientation="vertical" onKeyDown={onKeyDown}>
      {sections.map((s) => (
        <button
          key={s.id}
          ref={(el) => {
            if (el) refs.current.set(s.id, el);
            else refs.current.delete(s.id);
          }}
          id={`settings-${s.id}-tab`}
          type="button"
          role="tab"
          className="section-list__item"
          aria-selected={s.id === chosen}
          aria-controls={`settings-${s.id}`}
          tabIndex={s.id === chosen ? 0 : -1}
          onClick={() => onChoose(s.id)}
        >
          {s.label}
        </button>
      ))}
    </div>
  );
}
