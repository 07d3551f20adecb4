// launchChromium starts the system Chromium headless, the way the e2e test (ui.mjs) and the
// grid benchmark (bench/grid/grid.mjs) both drive it, with software WebGL for the Map tab: CHROMIUM names the browser (default
// /usr/bin/chromium); playwright gives every launch a fresh temporary profile itself.
import { chromium } from "playwright-core";

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      // WebGL (the Map tab) on the CPU: SwiftShader, which Chromium now lends only when asked.
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
