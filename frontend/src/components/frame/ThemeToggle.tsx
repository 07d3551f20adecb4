import type { LucideIcon } from "lucide-react";
import type { ThemePreference } from "../../theme/theme";
import { Icon, Moon, Sun, SunMoon } from "../icons";

const LABELS: Record<ThemePreference, string> = {
  system: "System theme",
  light: "Light theme",
  dark: "Dark theme",
};

const ICONS: Record<ThemePreference, LucideIcon> = {
  system: SunMoon,
  light: Sun,
  dark: Moon,
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
      <Icon icon={ICONS[preference]} />
      <span className="icon-btn__label">{preference}</span>
    </button>
  );
}
