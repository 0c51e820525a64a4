// npm test: build the app (the API and browser tests run the real production server), run Vitest (unit +
// API) and Playwright (e2e in Debian's Chromium), then print one line "N passed, M failed" for CI.
// DSA_SKIP_BUILD=1 skips the build when the caller has just built (as .ci/run does).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const results = path.join(root, "test-results");
fs.mkdirSync(results, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: "inherit" });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

// The browser tests need Debian's chromium (Playwright's own download is unreachable here); as root on
// Debian, install it rather than fail, so the README's one test command works on a fresh machine.
function ensureChromium() {
  const found = spawnSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" });
  if (found.status === 0 || process.env.CHROMIUM_PATH) return;
  if (process.getuid?.() !== 0 || spawnSync("sh", ["-c", "command -v apt-get"]).status !== 0) {
    console.error("Chromium is missing: install Debian's `chromium` package (apt-get install chromium) or set CHROMIUM_PATH.");
    return;
  }
  console.log("installing Debian's chromium for the browser tests ...");
  const aptEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env: aptEnv });
  spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env: aptEnv });
}

ensureChromium();

if (process.env.DSA_SKIP_BUILD !== "1") {
  if (run("npx", ["next", "build"]) !== 0) {
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}

const vitestFile = path.join(results, "vitest.json");
const playwrightFile = path.join(results, "playwright.json");
fs.rmSync(vitestFile, { force: true });
fs.rmSync(playwrightFile, { force: true });

const vitestExit = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile=${vitestFile}`]);
const playwrightExit = run("npx", ["playwright", "test"]);

const vitest = readJson(vitestFile);
const playwright = readJson(playwrightFile);
let passed = 0;
let failed = 0;
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  // A failed test also fails its describe blocks and its file (numFailedTestSuites counts those): count
  // failed tests, plus files that failed with no failed test (a syntax error, a failing hook).
  const suitesWithoutFailedTest = (vitest.testResults ?? []).filter(
    (suite) => suite.status === "failed" && !(suite.assertionResults ?? []).some((test) => test.status === "failed"),
  ).length;
  failed += (vitest.numFailedTests ?? 0) + suitesWithoutFailedTest;
} else {
  failed += 1;
}
if (playwright?.stats) {
  passed += playwright.stats.expected ?? 0;
  failed += (playwright.stats.unexpected ?? 0) + (playwright.stats.flaky ?? 0);
} else {
  failed += 1;
}
// A runner that exited non-zero without reporting a failed test (crash, setup error) still fails the run.
if (vitestExit !== 0 && failed === 0) failed += 1;
if (playwrightExit !== 0 && failed === 0) failed += 1;

// CI keeps only the end of the output: name every failed test there, so a failure far up the Vitest log is
// still identifiable.
const failures = [];
for (const suite of vitest?.testResults ?? []) {
  const file = path.relative(root, suite.name ?? "");
  if (suite.status === "failed" && !(suite.assertionResults ?? []).some((test) => test.status === "failed")) {
    failures.push(`vitest ${file}: ${String(suite.message || "suite failed").split("\n")[0].slice(0, 300)}`);
  }
  for (const test of suite.assertionResults ?? []) {
    if (test.status !== "failed") continue;
    const reason = String(test.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 300);
    failures.push(`vitest ${file} > ${test.fullName ?? test.title}: ${reason}`);
  }
}
const walkPlaywright = (suite, trail) => {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status === "unexpected" || test.status === "flaky") failures.push(`playwright ${spec.file}:${spec.line} > ${[...trail, spec.title].join(" > ")} (${test.status})`);
    }
  }
  for (const child of suite.suites ?? []) walkPlaywright(child, [...trail, child.title]);
};
for (const suite of playwright?.suites ?? []) walkPlaywright(suite, []);
if (failures.length > 0) console.log(`\nfailed tests:\n${failures.map((line) => `  ${line}`).join("\n")}`);

console.log(`\nvitest: exit ${vitestExit}; playwright: exit ${playwrightExit}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && vitestExit === 0 && playwrightExit === 0 ? 0 : 1);
