import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { buildMarkdownReport } from "@/lib/history/markdown";
import { buildShareCard } from "@/lib/history/share/card";
import { renderShareHtml } from "@/lib/history/share/html";
import { renderSharePng } from "@/lib/history/share/png";
import { storedReport } from "@/lib/history/test-records";
import { median, startService, type Benchmark, type BenchRow } from "./harness";

// The share PNG (satori + resvg on the renderer threads, lib/history/share/render-pool.ts) against the
// reference service's approach, a headless-Chromium full-page screenshot of the same card's HTML (Debian's chromium
// through Playwright, browser already running, one page reused). Same Chinese report, same 1080 px width; medians
// of warm runs.

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

/** Waits for the service's log line that its renderer warm-up (in the background after start) is done; its ms. */
async function renderWarmUp(dataDir: string): Promise<number> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const line = fs
      .readFileSync(path.join(dataDir, "server.log"), "utf8")
      .split("\n")
      .find((l) => l.includes("share image renderer warmed"));
    if (line) return (JSON.parse(line) as { ms: number }).ms;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the service never logged its share renderer warm-up");
}

/**
 * At the API: a started service (which warms the renderer in the background after start-up), one stored
 * report; the first GET share-image after the start, then repeats of it (served from the per-card cache). Each repeat
 * is paired with a GET of the bench's bare Next.js route answering as many bytes in the same server (DSA_BENCH_ROUTES):
 * Next's own floor for sending that image, the baseline of the repeat row.
 */
async function apiTimings(): Promise<{ first: number; repeat: number; floor: number; bytes: number; warmUp: number }> {
  const service = await startService({ MARKET_DATA_SOURCES: "sample", LOG_LEVEL: "info", DSA_BENCH_ROUTES: "1" });
  try {
    const analyzed = await fetch(`${service.baseUrl}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stock_code: "600519", report_type: "full", notify: false }),
    });
    const id = ((await analyzed.json()) as { report: { meta: { id: number } } }).report.meta.id;
    const warmUp = await renderWarmUp(service.dataDir);
    let bytes = 0;
    const get = async (url: string) => {
      const started = performance.now();
      const res = await fetch(url);
      bytes = (await res.arrayBuffer()).byteLength;
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      return performance.now() - started;
    };
    const shareUrl = `${service.baseUrl}/api/v1/history/${id}/share-image`;
    const first = await get(shareUrl);
    const pngBytes = bytes;
    const floorUrl = `${service.baseUrl}/api/bench/bare?bytes=${pngBytes}`;
    for (let i = 0; i < WARMUP; i++) await get(floorUrl);
    const repeats: number[] = [];
    const floors: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      repeats.push(await get(shareUrl));
      floors.push(await get(floorUrl));
      if (bytes !== pngBytes) throw new Error(`the bare route sent ${bytes} bytes, not ${pngBytes}`);
    }
    return { first, repeat: median(repeats), floor: median(floors), bytes: pngBytes, warmUp };
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
    const markdown = buildMarkdownReport({ report, news, dataSource: "eastmoney", region: "cn", volumeRatio: 1.2, turnoverRate: 0.4 });
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
    const pngMedian = median(png);
    const shotMedian = median(shots);
    const pairRatio = median(png.map((ms, i) => ms / shots[i]!));
    return [
      { benchmark, subject: "headless Chromium screenshot of share HTML", metric: `median of ${ROUNDS} warm`, value: round(shotMedian), unit: "ms" },
      { benchmark, subject: "satori + resvg PNG (DSA)", metric: `median of ${ROUNDS} warm, each paired with a screenshot`, value: round(pngMedian), unit: "ms", ratio: round(pairRatio, 3) },
      { benchmark, subject: "headless Chromium screenshot of share HTML", metric: "first render (browser running)", value: round(shotCold), unit: "ms" },
      { benchmark, subject: "headless Chromium", metric: "browser launch", value: round(launchMs), unit: "ms" },
      { benchmark, subject: "satori + resvg PNG (DSA)", metric: "first render (cold: modules, fonts)", value: round(pngCold), unit: "ms", ratio: round(pngCold / (launchMs + shotCold), 3) },
      { benchmark, subject: "DSA renderer warm-up (background, after start)", metric: "time to warmed", value: round(api.warmUp), unit: "ms" },
      { benchmark, subject: "GET share-image (DSA API, renderer warmed at start-up)", metric: "first request after start", value: round(api.first), unit: "ms", ratio: round(api.first / shotCold, 3) },
      { benchmark, subject: `bare Next.js route sending the same ${api.bytes} bytes (same server)`, metric: `median of ${ROUNDS} sequential`, value: round(api.floor), unit: "ms" },
      { benchmark, subject: "GET share-image (DSA API)", metric: `median of ${ROUNDS} repeats (cached per card)`, value: round(api.repeat), unit: "ms", ratio: round(api.repeat / api.floor, 3) },
    ];
  },
};
