import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium (.ci/run installs it); never a browser download. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

/** Debian's Chromium, headless, nothing of its own reaching the network; `args` adds to its flags. Undefined when absent. */
export async function launchChromium(args: string[] = []): Promise<Browser | undefined> {
  if (!hasChromium) return undefined;
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...args,
    ],
  });
}
