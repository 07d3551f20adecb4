import type { ReactNode } from "react";
import type { DetailSection } from "../../api";
import { settingIn } from "./settingLink";
import "./details.css";

/**
 * seeTheSetting is a FilterBar's settingLink: for a refusal whose reason quotes one of the
 * table's settings, a "See the setting" link that opens the definition in words there.
 */
export function seeTheSetting(details: DetailSection[], open: (setting: string) => void): (reason: string) => ReactNode {
  return (reason) => {
    const setting = settingIn(reason, details);
    return setting ? (
      <button type="button" className="link-button" onClick={() => open(setting)}>
        See the setting
      </button>
    ) : null;
  };
}
