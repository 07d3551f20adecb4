import { useEffect, useState } from "react";
import { useApi, type PluginProgress } from "../../api";

/**
 * useInstalling follows the plugin downloads that saved connections wait for while they open
 * (SPEC A.3: opening a saved connection installs its missing plugin without asking). It maps
 * each waiting connection's id to the latest progress; the sidebar shows it while the
 * connection is connecting.
 */
export function useInstalling(): Record<string, PluginProgress> {
  const api = useApi();
  const [byConn, setByConn] = useState<Record<string, PluginProgress>>({});
  useEffect(
    () =>
      api.plugins.onProgress((p) => {
        if (p.connectionId) setByConn((m) => ({ ...m, [p.connectionId]: p }));
      }),
    [api],
  );
  return byConn;
}
