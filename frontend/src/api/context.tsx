import { createContext, useContext, type ReactNode } from "react";
import type { Api } from "./types";

const ApiContext = createContext<Api | null>(null);

/** ApiProvider makes one Api available to every component below it. */
export function ApiProvider({ api, children }: { api: Api; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

/** useApi returns the Api from the nearest ApiProvider. */
export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error("useApi must be used inside <ApiProvider>");
  return api;
}
