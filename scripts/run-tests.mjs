// The test suite's one entry point (README: "Commands").
//   npm test                  every pass whose services answer; the others are named on one line, with the command
//                             that runs them. Exits 0 when what ran passed.
//   npm run test:full         every pass; a service that does not answer fails the run (what .ci/run calls).
//   npm run test:exhaustive   the exhaustive forms of the sampled checks (property runs, writer kills, fuzz
//                             requests, every page in every look), for a change in those areas.
// The API and browser passes run the real production server: the build runs first unless DSA_SKIP_BUILD=1 (.ci/run
// has just built). Each pass prints its seconds; the last line is "N passed, M failed" for CI.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const results = path.join(root, "test-results");
const args = new Set(process.argv.slice(2));
const full = args.has("--full");
const exhaustive = args.has("--exhaustive");

const PG_URL = process.env.DSA_TEST_PG_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.DSA_TEST_REDIS_URL || "redis://127.0.0.1:6379";
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  DSA_TEST_PG_URL: PG_URL,
  DSA_TEST_REDIS_URL: REDIS_URL,
  ...(exhaustive ? { DSA_EXHAUSTIVE: "1" } : {}),
};

/** A URL as it may be printed: without its password. */
function shown(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/** Whether something accepts a TCP connection at the URL's host and port within two seconds. */
function answers(url, defaultPort) {
  let host;
  let port;
  try {
    const u = new URL(url);
    host = u.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1";
    port = Number(u.port || defaultPort);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** PostgreSQL answers a query at PG_URL (not only a listening port). */
async function postgresAnswers() {
  if (!(await answers(PG_URL, 5432))) return false;
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Redis answers PING at REDIS_URL. */
async function redisAnswers() {
  if (!(await answers(REDIS_URL, 6379))) return false;
  const { default: Redis } = await import("ioredis");
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

const commandExists = (name) => spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;
const chromiumFound = () =>
  Boolean(process.env.CHROMIUM_PATH) || ["chromium-headless-shell", "chromium", "chromium-browser"].some(commandExists);

const services = {
  postgres: { label: `PostgreSQL at ${shown(PG_URL)} (DSA_TEST_PG_URL)`, up: await postgresAnswers() },
  redis: { label: `Redis at ${shown(REDIS_URL)} (DSA_TEST_REDIS_URL)`, up: await redisAnswers() },
  "redis-server": {
    label: "the redis-server program (Debian package redis-server)",
    up: fs.existsSync("/usr/bin/redis-server"),
  },
  chromium: {
    label: "Chromium (Debian package chromium-headless-shell or chromium, or CHROMIUM_PATH)",
    up: chromiumFound(),
  },
};

// The passes in the order they run, one after another, and what each needs (vitest.config.ts says what each Vitest
// project holds). They are not run side by side: on two cores that made every pass slower than its share and broke
// tests that measure time (a writer killed mid-write, rate limits). The unit pass runs its files in one process
// without isolation, so one core; `shards` runs it as that many such processes, each with a fixed half of the files
// (Vitest's --shard: by a hash of the path), side by side.
const PASSES = [
  { name: "unit", vitest: ["unit", "unit-isolated"], needs: [], shards: 2 },
  { name: "unit-redis", vitest: ["unit-redis"], needs: ["redis"] },
  { name: "unit-pg", vitest: ["unit-pg"], needs: ["postgres", "redis"] },
  { name: "api", vitest: ["api"], needs: [] },
  { name: "api-pg", vitest: ["api-pg"], needs: ["postgres"] },
  { name: "replica", vitest: ["replica"], needs: ["postgres", "redis-server"] },
  { name: "e2e", playwright: [], needs: ["chromium"] },
];

// The checks that keep a sample in the suite and have an exhaustive form (DSA_EXHAUSTIVE=1).
const EXHAUSTIVE_PASSES = [
  { name: "unit-exhaustive", vitest: ["unit"], files: ["lib/config/env-store.test.ts"], needs: [] },
  { name: "api-exhaustive", vitest: ["api"], files: ["tests/api/fuzz.test.ts"], needs: [] },
  { name: "e2e-exhaustive", playwright: ["e2e/a11y.spec.ts"], needs: ["chromium"] },
];

const passes = exhaustive ? EXHAUSTIVE_PASSES : PASSES;
const missing = (pass) => pass.needs.filter((need) => !services[need].up);
const runnable = passes.filter((pass) => missing(pass).length === 0);
const skipped = passes.filter((pass) => missing(pass).length > 0);

if (full && skipped.length > 0) {
  for (const pass of skipped)
    console.error(
      `test:full: pass ${pass.name} needs ${missing(pass)
        .map((need) => services[need].label)
        .join(" and ")}, which did not answer`,
    );
  console.log("0 passed, 1 failed");
  process.exit(1);
}

fs.mkdirSync(results, { recursive: true });
const needsBuild = runnable.some(
  (pass) => pass.playwright || (pass.vitest ?? []).some((project) => /^api|^replica/.test(project)),
);
if (needsBuild && process.env.DSA_SKIP_BUILD !== "1") {
  const started = Date.now();
  console.log("\n== build");
  const built = spawnSync("npm", ["run", "build"], { cwd: root, env, stdio: "inherit" });
  console.log(`== build: ${Math.round((Date.now() - started) / 1000)} s`);
  if (built.status !== 0) {
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}

const runStarted = Date.now();

/** Runs a command to its end; its output on ours, or into `log` when given. Resolves to the exit code. */
function run(args, log) {
  return new Promise((resolve) => {
    const out = log ? fs.openSync(log, "w") : "inherit";
    const child = spawn("npx", args, { cwd: root, env, stdio: ["ignore", out, out] });
    child.on("exit", (code) => {
      if (log) fs.closeSync(out);
      resolve(code ?? 1);
    });
  });
}

/** Runs one pass, its output on ours; returns its exit codes, seconds and report files (one per shard). */
async function runPass(pass) {
  console.log(`\n== ${pass.name}`);
  const started = Date.now();
  let runs;
  if (pass.vitest) {
    const shards = pass.shards ?? 1;
    runs = await Promise.all(
      Array.from({ length: shards }, async (_, i) => {
        const suffix = shards > 1 ? `-${i + 1}` : "";
        const report = path.join(results, `vitest-${pass.name}${suffix}.json`);
        fs.rmSync(report, { force: true });
        const args = [
          "vitest",
          "run",
          ...pass.vitest.flatMap((project) => ["--project", project]),
          "--reporter=default",
          "--reporter=json",
          `--outputFile=${report}`,
        ];
        if (shards > 1) args.push(`--shard=${i + 1}/${shards}`);
        // Side-by-side shards write to their own logs, printed whole when they end, so the lines do not interleave.
        const log = shards > 1 ? path.join(results, `vitest-${pass.name}${suffix}.log`) : undefined;
        const exit = await run([...args, ...(pass.files ?? [])], log);
        if (log) process.stdout.write(fs.readFileSync(log));
        return { report, exit };
      }),
    );
  } else {
    const report = path.join(results, "playwright.json");
    fs.rmSync(report, { force: true });
    runs = [{ report, exit: await run(["playwright", "test", ...pass.playwright]) }];
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`== ${pass.name}: ${seconds} s`);
  return { pass, runs, seconds };
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

let passed = 0;
let failed = 0;
const failures = [];

function countVitest(report, exit, pass) {
  if (!report) {
    failed += 1;
    failures.push(`${pass}: no report (exit ${exit})`);
    return;
  }
  passed += report.numPassedTests ?? 0;
  // A failed test also fails its describe blocks and its file (numFailedTestSuites counts those): count failed
  // tests, plus files that failed with no failed test (a syntax error, a failing hook).
  let counted = report.numFailedTests ?? 0;
  for (const suite of report.testResults ?? []) {
    const file = path.relative(root, suite.name ?? "");
    const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === "failed");
    if (suite.status === "failed" && failedTests.length === 0) {
      counted += 1;
      failures.push(
        `${pass} ${file}: ${String(suite.message || "suite failed")
          .split("\n")[0]
          .slice(0, 300)}`,
      );
    }
    for (const test of failedTests)
      failures.push(
        `${pass} ${file} > ${test.fullName ?? test.title}: ${String(test.failureMessages?.[0] ?? "")
          .split("\n")[0]
          .slice(0, 300)}`,
      );
  }
  // A runner that exited non-zero without reporting a failed test (crash, setup error) still fails the run.
  if (exit !== 0 && counted === 0) {
    counted = 1;
    failures.push(`${pass}: vitest exited ${exit} without a failed test`);
  }
  failed += counted;
}

function countPlaywright(report, exit, pass) {
  if (!report?.stats) {
    failed += 1;
    failures.push(`${pass}: no report (exit ${exit})`);
    return;
  }
  passed += report.stats.expected ?? 0;
  let counted = (report.stats.unexpected ?? 0) + (report.stats.flaky ?? 0);
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "unexpected" || test.status === "flaky")
          failures.push(`${pass} ${spec.file}:${spec.line} > ${[...trail, spec.title].join(" > ")} (${test.status})`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  if (exit !== 0 && counted === 0) {
    counted = 1;
    failures.push(`${pass}: playwright exited ${exit} without a failed test`);
  }
  failed += counted;
}

const finished = [];
for (const pass of runnable) {
  const result = await runPass(pass);
  finished.push(result);
  for (const { report, exit } of result.runs) {
    if (pass.vitest) countVitest(readJson(report), exit, pass.name);
    else countPlaywright(readJson(report), exit, pass.name);
  }
}
const wall = Math.round((Date.now() - runStarted) / 1000);

// CI keeps only the end of the output: the timings and every failed test go there.
console.log(
  `\ntest passes (seconds, ${wall} in all): ${finished.map((r) => `${r.pass.name} ${r.seconds}`).join(", ")}`,
);
if (failures.length > 0) console.log(`\nfailed tests:\n${failures.map((line) => `  ${line}`).join("\n")}`);
if (skipped.length > 0) {
  const reasons = [...new Set(skipped.flatMap(missing))].map((need) => services[need].label);
  console.log(
    `\nnot run: ${skipped.map((pass) => pass.name).join(", ")} (no answer from ${reasons.join("; ")}); run them with \`npm run test:full\` once these answer`,
  );
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
