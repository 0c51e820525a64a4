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
    return execFileSync(
      "sh",
      ["-c", "command -v chromium-headless-shell || command -v chromium || command -v chromium-browser"],
      { encoding: "utf8" },
    ).trim();
  } catch {
    throw new Error("Chromium not found: install Debian's `chromium-headless-shell` (or `chromium`) package");
  }
}

// One worker by default. E2E_WORKERS=N runs N, each with a server of its own (own port, database and env file), so
// specs that change settings never meet: here two took the pass from 360 to 269 s (one worker leaves a core idle a
// third of the time), but under that load a spec that watches a task's short-lived stages in the browser missed
// them once in four runs, so CI keeps one. Workers re-evaluate this file; values chosen once in the main process
// reach them through the environment, and a worker picks its server by Playwright's TEST_PARALLEL_INDEX
// (0 .. workers-1). The ports vary per run so two runs on one machine do not collide.
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));
process.env.E2E_PORT ??= String(20000 + ((process.pid * workers) % 20000));
if (!process.env.E2E_DATA_ROOT) {
  process.env.E2E_DATA_ROOT = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-e2e-"));
  for (let i = 0; i < workers; i++) {
    fs.mkdirSync(path.join(process.env.E2E_DATA_ROOT, `w${i}`));
    // This machine has no internet: the servers start on the offline sample provider, as a user without one would
    // set it up, so no page waits out unreachable providers. Specs change settings through the config API.
    fs.writeFileSync(path.join(process.env.E2E_DATA_ROOT, `w${i}`, ".env"), "MARKET_DATA_SOURCES=sample\n");
  }
}
const servers = Array.from({ length: workers }, (_, i) => ({
  port: Number(process.env.E2E_PORT) + i,
  dataDir: path.join(process.env.E2E_DATA_ROOT!, `w${i}`),
}));
// In a worker: its own server's folder, which the spec fixtures read as E2E_DATA_DIR (database, env file).
const mine = servers[Math.min(Number(process.env.TEST_PARALLEL_INDEX ?? 0), workers - 1)]!;
process.env.E2E_DATA_DIR = mine.dataDir;
const baseURL = `http://127.0.0.1:${mine.port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e-artifacts",
  fullyParallel: false,
  workers,
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
    // A Chinese browser, so first visits get the zh-CN UI the specs expect (the UI follows
    // Accept-Language until the user picks a language); specs of the English first visit set their own locale.
    { name: "desktop", use: { ...devices["Desktop Chrome"], channel: undefined, locale: "zh-CN" } },
  ],
  webServer: servers.map(({ port, dataDir }) => ({
    command: "node scripts/start.mjs",
    url: `http://127.0.0.1:${port}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATABASE_URL: `file:${path.join(dataDir, "e2e.db")}`,
      ENV_FILE: path.join(dataDir, ".env"),
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      // As on the API suites' servers: no share-renderer warm-up keeping both cores busy under the first specs
      // (share images still render on demand).
      SHARE_IMAGE_WARMUP: "false",
      SHARE_IMAGE_PRERENDER: "false",
    },
  })),
});
