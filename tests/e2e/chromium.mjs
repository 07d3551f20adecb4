// launchChromium starts the system Chromium headless, the way the e2e test (ui.mjs) and the
// grid benchmark (bench/grid/grid.mjs) both drive it: CHROMIUM names the browser (default
// /usr/bin/chromium); playwright gives every launch a fresh temporary profile itself.
import { chromium } from "playwright-core";

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
