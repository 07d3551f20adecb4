import type { ThemePreference } from "../../theme/theme";

const LABELS: Record<ThemePreference, string> = {
  system: "System theme",
  light: "Light theme",
  dark: "Dark theme",
};

const ICONS: Record<ThemePreference, string> = {
  system: "◐",
  light: "☀",
  dark: "☾",
};

/** ThemeToggle cycles system -> light -> dark and says which one is on. */
export function ThemeToggle({ preference, onToggle }: { preference: ThemePreference; onToggle: () => void }) {
  return (
    <button
      type="button"
      className="icon-btn"
      onClick={onToggle}
      aria-label={`${LABELS[preference]} (click to change)`}
      title={`${LABELS[preference]} — click to change`}
    >
      <span aria-hidden="true">{ICONS[preference]}</span>
      <span className="icon-btn__label">{preference}</span>
    </button>
  );
}
