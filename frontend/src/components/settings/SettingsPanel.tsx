import type { ThemePreference } from "../../theme/theme";
import { useState } from "react";
import type { Connection } from "../../api";
import { ActivitySettings } from "./ActivitySettings";
import { ClientsSettings } from "./ClientsSettings";
import { MCPServerSettings } from "./MCPServerSettings";
import { PairingSettings } from "./PairingSettings";
import { PluginsSettings } from "./PluginsSettings";
import { TokensSettings } from "./TokensSettings";

const CHOICES: ThemePreference[] = ["system", "light", "dark"];

/** SettingsPanel: appearance; the MCP server, its tokens, connected clients and activity log; the driver plugins. */
export function SettingsPanel({
  preference,
  onChoose,
  connections = [],
}: {
  preference: ThemePreference;
  onChoose: (p: ThemePreference) => void;
  connections?: Connection[];
}) {
  // A client connected above adds a token: the list below reloads.
  const [tokensVersion, setTokensVersion] = useState(0);
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
      <MCPServerSettings />
      <PairingSettings onTokensChanged={() => setTokensVersion((v) => v + 1)} />
      <TokensSettings version={tokensVersion} connections={connections} />
      <ClientsSettings />
      <ActivitySettings />
      <PluginsSettings />
    </section>
  );
}
