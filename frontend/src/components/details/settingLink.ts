import type { DetailSection } from "../../api";

/**
 * settingIn finds the setting a refusal's reason quotes, among the settings the table's
 * details name (the driver writes them in parentheses, e.g. "(invertedIndexConfig.indexNullState)").
 * The longest match wins, so "properties.title" is not taken for "properties.titles".
 */
export function settingIn(reason: string, details: DetailSection[]): string | null {
  let best: string | null = null;
  for (const s of details) {
    for (const it of s.items) {
      if (it.setting && reason.includes(it.setting) && (!best || it.setting.length > best.length)) best = it.setting;
    }
  }
  return best;
}

/** detailId is the element id of a setting's row in the details view. */
export function detailId(table: string, setting: string): string {
  return `detail-${table}-${setting}`.replace(/[^A-Za-z0-9_-]/g, "_");
}
