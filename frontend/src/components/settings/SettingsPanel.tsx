import type { ThemePreference } from "../../theme/theme";
import { useState, type ReactNode } from "react";
import type { Connection } from "../../api";
import { ActivitySettings } from "./ActivitySettings";
import { ClientsSettings } from "./ClientsSettings";
import { MCPServerSettings } from "./MCPServerSettings";
import { PairingSettings } from "./PairingSettings";
import { PluginsSettings } from "./PluginsSettings";
import { SectionList } from "./SectionList";
import { TokensSettings } from "./TokensSettings";
import "./settings.css";

const CHOICES: ThemePreference[] = ["system", "light", "dark"];

/** The sections of the Settings page, in the order the list shows them. */
export const SETTINGS_SECTIONS = ["general", "mcp", "clients", "tokens", "activity", "plugins"] as const;

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

const LABELS: Record<SettingsSection, string> = { general: "General", mcp: "MCP server", clients: "Clients", tokens: "Tokens", activity: "Activity", plugins: "Plugins" };
const SECTIONS = SETTINGS_SECTIONS.map((id) => ({ id, label: LABELS[id] }));

interface Props {
  preference: ThemePreference;
  onChoose: (p: ThemePreference) => void;
  connections?: Connection[];
  /** The section on screen, when the workspace remembers it (a tab switch, Re-pair in Settings); else the panel keeps its own. */
  section?: SettingsSection;
  onSection?: (s: SettingsSection) => void;
}

/**
 * SettingsPanel is the Settings page: a list of sections on the left (appearance; the MCP
 * server; its clients and how to connect one; its tokens; the activity log; the driver
 * plugins), the chosen one on the right.
 */
export function SettingsPanel({ preference, onChoose, connections = [], section, onSection }: Props) {
  const [own, setOwn] = useState<SettingsSection>("general");
  const shown = section ?? own;
  const choose = (s: SettingsSection) => {
    setOwn(s);
    onSection?.(s);
  };
  // A client connected under Clients adds a token: the Tokens list reads again.
  const [tokensVersion, setTokensVersion] = useState(0);
  const content: Record<SettingsSection, ReactNode> = {
    general: <Appearance preference={preference} onChoose={onChoose} />,
    mcp: <MCPServerSettings />,
    clients: (
      <>
        <ClientsSettings />
        <PairingSettings onTokensChanged={() => setTokensVersion((v) => v + 1)} />
      </>
    ),
    tokens: <TokensSettings version={tokensVersion} connections={connections} />,
    activity: <ActivitySettings />,
    plugins: <PluginsSettings />,
  };
  return (
    <section className="panel settings-page" aria-label="Settings">
      <header className="panel__head">
        <h2 className="panel__title">Settings</h2>
      </header>
      <div className="settings-page__body">
        <SectionList sections={SECTIONS} chosen={shown} onChoose={choose} />
        <div className="settings-page__content">
          {/* Every section stays mounted, the others hidden: a token shown once, a half-typed
              filter or a running install survive a look at another section. */}
          {SETTINGS_SECTIONS.map((id) => (
            <div key={id} id={`settings-${id}`} role="tabpanel" aria-labelledby={`settings-${id}-tab`} className="settings-page__section" hidden={shown !== id}>
              {content[id]}
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}

/** Appearance is the General section: the theme, as the system has it or always light or dark. */
function Appearance({ preference, onChoose }: { preference: ThemePreference; onChoose: (p: ThemePreference) => void }) {
  return (
    <fieldset className="field">
      <legend>Appearance</legend>
      <div className="segmented" role="radiogroup" aria-label="Theme">
        {CHOICES.map((c) => (
          <button key={c} type="button" role="radio" aria-checked={preference === c} className="segmented__item" onClick={() => onChoose(c)}>
            {c.charAt(0).toUpperCase() + c.slice(1)}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
