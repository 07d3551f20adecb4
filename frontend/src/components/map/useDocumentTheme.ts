import { useSyncExternalStore } from "react";
import type { ResolvedTheme } from "../../theme/theme";

/** subscribe calls back whenever <html data-theme> changes (useTheme sets it in an effect). */
function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => observer.disconnect();
}

function current(): ResolvedTheme {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

/**
 * useDocumentTheme is the theme the window shows, as <html data-theme> says, re-rendering the
 * component when it changes: what a picture drawn outside CSS (the map's WebGL canvas) follows.
 * The attribute is written by useTheme's effect after a render, so reading it while rendering
 * would lag one render behind a switch.
 */
export function useDocumentTheme(): ResolvedTheme {
  return useSyncExternalStore(subscribe, current, current);
}
