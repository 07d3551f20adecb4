import { ConnectionPanel } from "./ConnectionPanel";
import { SettingsPanel } from "./SettingsPanel";
import { TabBar } from "./TabBar";
import type { Tab } from "./useWorkspace";
import { WelcomePanel } from "./WelcomePanel";
import type { ThemePreference } from "../../theme/theme";

interface Props {
  tabs: Tab[];
  active: Tab | null;
  onSelect: (key: string) => void;
  onClose: (key: string) => void;
  hasConnections: boolean;
  theme: ThemePreference;
  onChooseTheme: (p: ThemePreference) => void;
}

/** Workspace is the main area: a tab bar and the active tab's panel. */
export function Workspace({ tabs, active, onSelect, onClose, hasConnections, theme, onChooseTheme }: Props) {
  return (
    <main className="workspace">
      <TabBar tabs={tabs} activeKey={active?.key ?? null} onSelect={onSelect} onClose={onClose} />
      <div className="workspace__body" role={active ? "tabpanel" : undefined}>
        {active === null && <WelcomePanel hasConnections={hasConnections} />}
        {active?.kind === "connection" && <ConnectionPanel connection={active.connection} />}
        {active?.kind === "settings" && <SettingsPanel preference={theme} onChoose={onChooseTheme} />}
      </div>
    </main>
  );
}
