import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// Debian's Chromium; Playwright's own browser download is not reachable here. The headless shell first (apt
// package `chromium-headless-shell`, what Playwright itself runs headless) loads a page for far less CPU than the
// full browser in headless mode.
function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync("sh", ["-c", "command -v chromium-headless-shell || command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error("Chromium not found: install Debian's `chromium-headless-shell` (or `chromium`) package");
  }
}

// Workers re-evaluate this file; values chosen once in the main process reach them through the environment.
// The port varies per run so two runs on one machine do not collide.
process.env.E2E_PORT ??= String(20000 + (process.pid % 20000));
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-e2e-"));
  // This machine has no internet: the server starts on the offline sample provider, as a user without one would
  // set it up, so no page waits out unreachable providers. Specs change settings through the config API.
  fs.writeFileSync(path.join(process.env.E2E_DATA_DIR, ".env"), "MARKET_DATA_SOURCES=sample\n");
}
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR;
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e-artifacts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL,
    trace: "off",
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    // A Chinese browser, so first visits get the zh-CN UI the specs expect (issue 21 §3: the UI follows
    // Accept-Language until the user picks a language); specs of the English first visit set their own locale.
    { name: "desktop", use: { ...devices["Desktop Chrome"], channel: undefined, locale: "zh-CN" } },
  ],
  webServer: {
    command: "node scripts/start.mjs",
    url: `${baseURL}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATABASE_URL: `file:${path.join(dataDir, "e2e.db")}`,
      ENV_FILE: path.join(dataDir, ".env"),
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
