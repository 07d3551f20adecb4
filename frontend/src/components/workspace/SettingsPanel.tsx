import type { ThemePreference } from "../../theme/theme";
import { PluginsSettings } from "./PluginsSettings";

const CHOICES: ThemePreference[] = ["system", "light", "dark"];

/** SettingsPanel: appearance and the driver plugins; the MCP server and tokens join it later. */
export function SettingsPanel({
  preference,
  onChoose,
}: {
  preference: ThemePreference;
  onChoose: (p: ThemePreference) => void;
}) {
  return (
    <section className="panel" aria-label="Settings">
      <header className="panel__head">
        <h2 className="panel__title">Settings</h2>
      </header>
      <fieldset className="field">
        <legend>Appearance</legend>
        <div className="segmented" role="radiogroup" aria-label="Theme">
          {CHOICES.map((c) => (
            <button
              key={c}
              type="button"
              role="radio"
              aria-checked={preference === c}
              className="segmented__item"
              onClick={() => onChoose(c)}
            >
              {c.charAt(0).toUpperCase() + c.slice(1)}
            </button>
          ))}
        </div>
      </fieldset>
      <PluginsSettings />
    </section>
  );
}
