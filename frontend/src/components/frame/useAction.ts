import { useCallback, useEffect, useRef, useState } from "react";
import { parseApiError, type ApiError } from "../../api";

/**
 * useAction is the write side of a component: run an action (a create, a save, a revoke), know
 * while it runs, and keep why it failed for an ErrorLine. A new run clears the last error.
 * `run` resolves true when the action (and onDone, which reads the result back or moves on)
 * succeeded, false when it failed; it never rejects.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  // A component closed mid-action (its tab, its dialog) has no state left to set.
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const run = useCallback(async <T,>(action: () => Promise<T>, onDone?: (value: T) => void | Promise<void>): Promise<boolean> => {
    setError(null);
    setBusy(true);
    try {
      const value = await action();
      await onDone?.(value);
      return true;
    } catch (reason) {
      if (live.current) setError(parseApiError(reason));
      return false;
    } finally {
      if (live.current) setBusy(false);
    }
  }, []);

  const clear = useCallback(() => setError(null), []);
  return { run, busy, error, setError, clear };
}

export type Action = ReturnType<typeof useAction>;
