// Theme preference: "system" follows prefers-color-scheme; "light"/"dark" override it.
// The chosen preference is remembered in localStorage; the resolved theme is written to
// <html data-theme="..."> where styles/base.css picks its colour variables.

export type ThemePreference = "system" | "light" | "dark";
export type ResolvedTheme = "light" | "dark";

export const THEME_STORAGE_KEY = "app.theme";

export function readPreference(storage: Pick<Storage, "getItem"> | undefined): ThemePreference {
  try {
    const v = storage?.getItem(THEME_STORAGE_KEY);
    return v === "light" || v === "dark" || v === "system" ? v : "system";
  } catch {
    return "system";
  }
}

export function resolveTheme(pref: ThemePreference, systemDark: boolean): ResolvedTheme {
  if (pref === "system") return systemDark ? "dark" : "light";
  return pref;
}

/** nextPreference cycles system -> light -> dark -> system (the header toggle). */
export function nextPreference(pref: ThemePreference): ThemePreference {
  return pref === "system" ? "light" : pref === "light" ? "dark" : "system";
}
