import { useCallback, useEffect, useState } from "react";
import { parseApiError, type ApiError } from "./api";

/** A value loaded from the backend: loading, failed with the reason, or there. */
export type Loaded<T> = { status: "loading" } | { status: "error"; error: ApiError } | { status: "ready"; value: T };

/**
 * useLoaded loads a value when the component mounts (and when load changes) and reloads it on
 * request, keeping the last value on screen while it reloads.
 */
export function useLoaded<T>(load: () => Promise<T>): { state: Loaded<T>; reload: () => Promise<void> } {
  const [state, setState] = useState<Loaded<T>>({ status: "loading" });
  const reload = useCallback(async () => {
    try {
      setState({ status: "ready", value: await load() });
    } catch (reason) {
      setState({ status: "error", error: parseApiError(reason) });
    }
  }, [load]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { state, reload };
}
