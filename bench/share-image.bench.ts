import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { buildMarkdownReport } from "@/lib/history/markdown";
import { buildShareCard } from "@/lib/history/share/card";
import { renderShareHtml } from "@/lib/history/share/html";
import { renderSharePng } from "@/lib/history/share/png";
import { storedReport } from "@/tests/kits/stored-reports";
import { median, percentile, settle, startService, type Benchmark, type BenchRow } from "./harness";

// The share PNG (stock satori + resvg on the renderer threads, lib/history/share/render-pool.ts) against the
// reference service's approach, a headless-Chromium full-page screenshot of the same card's HTML (Debian's chromium
// through Playwright, browser already running, one page reused). Same Chinese report, same 1080 px width; medians
// of warm runs. Then the API: a stored report's image (drawn when stored), and health under a burst of renders.

const ROUNDS = Number(process.env.BENCH_SHARE_ROUNDS ?? 20);
// Untimed renders after the first, on both sides, before the warm medians: V8 compiles satori's layout code (and
// Chromium its own caches) over the first few whole cards, and a server renders many cards.
const WARMUP = Number(process.env.BENCH_SHARE_WARMUP ?? 8);

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim();
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;

/** Stocks the API rows analyse (sample data): Chinese and English reports, several markets. */
const STOCKS = ["600519", "000001", "00700", "AAPL", "601318", "000858", "09988", "MSFT"];
const HEALTH_IDLE_SAMPLES = 300;

interface ServerLogEntry {
  msg?: string;
  record_id?: number;
  ms?: number;
}

function serverLog(dataDir: string): ServerLogEntry[] {
  return fs
    .readFileSync(path.join(dataDir, "server.log"), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as ServerLogEntry);
}

/** Waits for the service's log line `msg` (about `recordId`, when given); the entry. */
async function logLine(dataDir: string, msg: string, recordId?: number): Promise<ServerLogEntry> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const entry = serverLog(dataDir).find((e) => e.msg === msg && (recordId === undefined || e.record_id === recordId));
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the service never logged "${msg}"`);
}

async function timedGet(url: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(url);
  const bytes = (await res.arrayBuffer()).byteLength;
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return { ms: performance.now() - started, bytes };
}

interface ApiTimings {
  warmUp: number;
  stored: number[];
  floor: number[];
  bytes: number;
  idleHealth: number[];
  burstHealth: number[];
  burstRenders: number;
  burstMs: number;
}

/**
 * At the API, the service with its defaults (renderer warmed after start, each stored report's image drawn in the
 * background): reports of several stocks, each GET share-image once its background draw is logged (a read), paired
 * with a GET of the bench's bare Next.js route answering as many bytes in the same server (DSA_BENCH_ROUTES), Next's
 * own floor for sending that image. Then /api/v1/health one request after another, idle and during a burst of
 * renders: every report in the other price-colour convention at once (cards not drawn yet).
 */
async function apiTimings(): Promise<ApiTimings> {
  const service = await startService({ MARKET_DATA_SOURCES: "sample", LOG_LEVEL: "info", DSA_BENCH_ROUTES: "1" });
  try {
    const warmUp = (await logLine(service.dataDir, "share image renderer warmed")).ms ?? Number.NaN;
    const records: { id: number; language: string }[] = [];
    for (const code of STOCKS) {
      const analyzed = await fetch(`${service.baseUrl}/api/v1/analysis/analyze`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ stock_code: code, report_type: "full", notify: false }),
      });
      const { report } = (await analyzed.json()) as { report: { meta: { id: number; report_language: string } } };
      records.push({ id: report.meta.id, language: report.meta.report_language });
      // One at a time, as a trader's reports arrive: the background draw of each is done before the next analysis.
      await logLine(service.dataDir, "share image drawn in the background", report.meta.id);
    }
    const shareUrl = (id: number, colors = "") =>
      `${service.baseUrl}/api/v1/history/${id}/share-image${colors ? `?colors=${colors}` : ""}`;
    const stored: number[] = [];
    const floor: number[] = [];
    let bytes = 0;
    for (let round = 0; round < Math.ceil(ROUNDS / records.length); round++) {
      for (const { id } of records) {
        const share = await timedGet(shareUrl(id));
        stored.push(share.ms);
        bytes = share.bytes;
        floor.push((await timedGet(`${service.baseUrl}/api/bench/bare?bytes=${share.bytes}`)).ms);
      }
    }
    const healthUrl = `${service.baseUrl}/api/v1/health`;
    await settle(service.pid); // the analyses' own background work (signals, caches) done: idle means idle
    for (let i = 0; i < 20; i++) await timedGet(healthUrl);
    const idleHealth: number[] = [];
    for (let i = 0; i < HEALTH_IDLE_SAMPLES; i++) idleHealth.push((await timedGet(healthUrl)).ms);
    const burstHealth: number[] = [];
    const burstStarted = performance.now();
    let rendering = true;
    const burst = Promise.all(
      records.map(({ id, language }) => timedGet(shareUrl(id, language === "en" ? "red_up" : "green_up"))),
    ).finally(() => (rendering = false));
    while (rendering) burstHealth.push((await timedGet(healthUrl)).ms);
    await burst;
    const burstMs = performance.now() - burstStarted;
    return { warmUp, stored, floor, bytes, idleHealth, burstHealth, burstRenders: records.length, burstMs };
  } finally {
    await service.stop();
  }
}

export const shareImageBenchmark: Benchmark = {
  name: "share-image",
  async run(): Promise<BenchRow[]> {
    const report = storedReport("zh");
    const news = [
      { title: "贵州茅台发布一季度报告：营收同比增长", snippet: "渠道库存健康", url: "https://news.example.com/1" },
      { title: "白酒板块午后走强", snippet: "短讯", url: "https://news.example.com/2" },
    ];
    const markdown = buildMarkdownReport({
      report,
      news,
      dataSource: "eastmoney",
      region: "cn",
      volumeRatio: 1.2,
      turnoverRate: 0.4,
    });
    const card = buildShareCard({ report, markdown });
    const html = renderShareHtml(card);

    const pngCold = await timed(() => renderSharePng(card)); // first call: module load, fonts read, layout engine start

    const launchStarted = performance.now();
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-gpu"] });
    const launchMs = performance.now() - launchStarted;
    // The warm renders alternate, one DSA card then one Chromium screenshot: this machine's speed drifts within a
    // minute, and a block of one followed by a block of the other would put that drift into the ratio. The ratio
    // is the median of the pairs' ratios.
    const png: number[] = [];
    const shots: number[] = [];
    let shotCold = 0;
    try {
      const page = await browser.newPage({ viewport: { width: 1080, height: 720 } });
      const shoot = async () => {
        await page.setContent(html, { waitUntil: "load" });
        await page.screenshot({ fullPage: true, type: "png" });
      };
      shotCold = await timed(shoot);
      for (let i = 0; i < WARMUP; i++) {
        await renderSharePng(card);
        await shoot();
      }
      for (let i = 0; i < ROUNDS; i++) {
        png.push(await timed(() => renderSharePng(card)));
        shots.push(await timed(shoot));
      }
    } finally {
      await browser.close();
    }

    const api = await apiTimings();
    const benchmark = "share image of one zh report (1080 px, full height)";
    const apiBenchmark = `share image at the API (${STOCKS.length} reports)`;
    const pngMedian = median(png);
    const shotMedian = median(shots);
    const pairRatio = median(png.map((ms, i) => ms / shots[i]!));
    const storedP50 = percentile(api.stored, 50);
    const floorP50 = percentile(api.floor, 50);
    const idleP99 = percentile(api.idleHealth, 99);
    const burstP99 = percentile(api.burstHealth, 99);
    return [
      {
        benchmark,
        subject: "headless Chromium screenshot of share HTML",
        metric: `median of ${ROUNDS} warm`,
        value: round(shotMedian),
        unit: "ms",
      },
      {
        benchmark,
        subject: "cold render: satori + resvg PNG, not cached (DSA)",
        metric: `median of ${ROUNDS}, each paired with a screenshot`,
        value: round(pngMedian),
        unit: "ms",
        ratio: round(pairRatio, 3),
      },
      {
        benchmark,
        subject: "headless Chromium screenshot of share HTML",
        metric: "first render (browser running)",
        value: round(shotCold),
        unit: "ms",
      },
      { benchmark, subject: "headless Chromium", metric: "browser launch", value: round(launchMs), unit: "ms" },
      {
        benchmark,
        subject: "satori + resvg PNG (DSA)",
        metric: "first render (threads started, fonts read)",
        value: round(pngCold),
        unit: "ms",
        ratio: round(pngCold / (launchMs + shotCold), 3),
      },
      {
        benchmark: apiBenchmark,
        subject: "DSA renderer warm-up (background, after start)",
        metric: "time to warmed",
        value: round(api.warmUp),
        unit: "ms",
      },
      {
        benchmark: apiBenchmark,
        subject: `bare Next.js route sending the same ${api.bytes} bytes (same server)`,
        metric: `p50 of ${api.floor.length} sequential`,
        value: round(floorP50),
        unit: "ms",
      },
      {
        benchmark: apiBenchmark,
        subject: "GET share-image of a stored report (drawn in the background when stored)",
        metric: `p50 of ${api.stored.length}, each paired with the bare route`,
        value: round(storedP50),
        unit: "ms",
        ratio: round(storedP50 / floorP50, 3),
      },
      {
        benchmark: apiBenchmark,
        subject: "GET /api/v1/health, idle",
        metric: `p99 of ${api.idleHealth.length} sequential`,
        value: round(idleP99),
        unit: "ms",
      },
      {
        benchmark: apiBenchmark,
        subject: `GET /api/v1/health during a burst of ${api.burstRenders} cold renders (${Math.round(api.burstMs)} ms)`,
        metric: `p99 of ${api.burstHealth.length} sequential`,
        value: round(burstP99),
        unit: "ms",
        ratio: round(burstP99 / idleP99, 3),
      },
    ];
  },
};
