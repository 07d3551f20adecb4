// chromiumLaunchOptions is how the e2e specs (through playwright.config.mjs) and the grid
// benchmark (bench/grid/grid.mjs, through launchChromium) start the system Chromium headless,
// with software WebGL for the Map tab: CHROMIUM names the browser (default /usr/bin/chromium);
// playwright gives every launch a fresh temporary profile itself.
import { chromium } from "playwright-core";

export function chromiumLaunchOptions() {
  return {
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
  };
}

export function launchChromium() {
  return chromium.launch(chromiumLaunchOptions());
}
