import { reviewMarkets } from "@/lib/market-review/rules";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { db, disconnectDb } from "@/lib/db/client";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";
import { buildMarkdownReport } from "@/lib/history/markdown";
import { toAnalysisReport } from "@/lib/history/report";
import { marketOverview, type TMarketOverview } from "@/lib/market/overview";
import { createSampleProvider } from "@/lib/market/providers/sample";
import { clearQuoteCache } from "@/lib/market/quote-cache";
import type { NewsChain, NewsProvider, TNewsItem } from "@/lib/news";
import {
  getMarketReviewParts,
  latestMarketReview,
  MarketReviewUnavailableError,
  runMarketReview,
  ZMarketReviewPayload,
  type MarketReviewJob,
} from "./index";

// The generator end to end without an LLM: sample market data from the settings, a temporary SQLite
// database, news from an in-process provider. The LLM path is in run.http.test.ts.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-review-"));
const dbFile = path.join(dir, "test.db");
let databaseUrl = "";
const AT = new Date("2026-11-20T12:00:00Z");
const NEWS_KEY = "tvly-NEWSSECRET-0123456789abcdef";
let counter = 0;

function useSettings(values: Record<string, string>) {
  const file = path.join(dir, `settings-${++counter}.env`);
  fs.writeFileSync(
    file,
    Object.entries(values)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n") + "\n",
  );
  setEnvironmentForTests({ ENV_FILE: file, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" });
}

function job(overrides: Partial<MarketReviewJob> = {}): MarketReviewJob {
  const id = `review${String(++counter).padStart(26, "0")}`;
  return { queryId: id, traceId: `trace-${id}`, taskId: id, region: "cn", triggerSource: "test", ...overrides };
}

function newsChain(items: TNewsItem[]): { chain: NewsChain; queries: string[] } {
  const queries: string[] = [];
  const provider: NewsProvider = {
    name: "tavily",
    search: async (query) => {
      queries.push(query);
      return items;
    },
  };
  return { chain: { providers: [provider], secrets: [NEWS_KEY] }, queries };
}

const noNews: NewsChain = { providers: [] };
const sampleChain = { providers: [createSampleProvider({ latencyMs: () => 0 })], timeoutMs: 2000, retries: 0 };

async function independentOverview(region: "cn" | "us"): Promise<TMarketOverview> {
  clearQuoteCache();
  const overview = await marketOverview(region, { chain: sampleChain });
  clearQuoteCache();
  return overview;
}

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl(dbFile);
});

afterAll(async () => {
  await disconnectDb();
  setEnvironmentForTests(process.env);
  setClock(null);
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  clearQuoteCache();
  setClock(() => AT);
  useSettings({ MARKET_DATA_SOURCES: "sample", REPORT_LANGUAGE: "zh" });
  await db().analysisHistory.deleteMany();
  await db().llmUsage.deleteMany();
});

describe("runMarketReview without an LLM", () => {
  it("stores one market_review record with the spec's identity fields, payload, diagnostics and flow", async () => {
    const steps: [number, string][] = [];
    const input = job({ onProgress: (pct, message) => steps.push([pct, message]) });
    const { record, markdown, payload } = await runMarketReview(input, { newsChain: noNews });

    expect(await db().analysisHistory.count()).toBe(1);
    expect(record).toMatchObject({
      queryId: input.queryId,
      traceId: input.traceId,
      stockCode: "MARKET",
      displayCode: "MARKET",
      stockName: "大盘复盘",
      reportType: "market_review",
      reportLanguage: "zh",
      region: "cn",
      assetType: null,
      targetKey: "review:cn",
      action: null,
      modelUsed: null,
      dataSource: "sample",
      currentPrice: null,
    });
    expect(record.targetKey.startsWith("stock:") || record.targetKey.startsWith("index:")).toBe(false);
    expect(record.sentimentScore).toBe(payload.market_light.score);
    expect(record.analysisSummary!.startsWith("【样本数据，非真实行情，仅供演示】")).toBe(true);

    expect(ZMarketReviewPayload.parse(payload)).toEqual(payload);
    expect([payload.engine, payload.model, payload.region, payload.language]).toEqual(["rules", null, "cn", "zh"]);

    // Progress: starts low, never goes back, ends at 100, each with a message.
    expect(steps[0]![0]).toBeLessThanOrEqual(10);
    expect(steps.at(-1)).toEqual([100, "done"]);
    expect(steps.every(([pct], i) => i === 0 || pct >= steps[i - 1]![0])).toBe(true);
    expect(steps.every(([, message]) => message.length > 0)).toBe(true);

    const diagnostics = JSON.parse(record.diagnostics!);
    expect(diagnostics).toMatchObject({
      query_id: input.queryId,
      task_id: input.taskId,
      stock_code: "MARKET",
      trigger_source: "test",
    });
    expect(Object.keys(diagnostics.components)).toEqual(["overview_cn", "news", "review_rules", "llm"]);
    expect(diagnostics.components.llm.status).toBe("not_configured");
    expect(diagnostics.components.news.status).toBe("not_configured");
    expect(diagnostics.components.overview_cn).toMatchObject({
      status: "ok",
      details: { provider: "sample", indices: 8, indices_quoted: 8 },
    });
    const flow = JSON.parse(record.flow!);
    expect(flow).toMatchObject({ task_id: input.taskId, stock_code: "MARKET", stock_name: "大盘复盘" });
    expect(flow.nodes.map((n: { id: string }) => n.id)).toEqual([
      "entry",
      "overview_cn",
      "news",
      "review_rules",
      "llm",
    ]);

    // The status reader gets the same text and payload back from the stored row.
    const parts = getMarketReviewParts(record);
    expect(parts).toEqual({ report: markdown, payload, region: "cn" });
    const empty = JSON.parse(record.reportJson).details.empty_news_disclosure;
    expect(empty).toMatch(/未检索到大盘相关新闻/);
  });

  it("numbers in the stored review equal the overview's (computed independently)", async () => {
    const { markdown } = await runMarketReview(job(), { newsChain: noNews });
    const cn = await independentOverview("cn");
    for (const index of cn.indices) {
      const q = index.quote!;
      const sign = (v: number) => (v > 0 ? "+" : "");
      expect(markdown).toContain(
        `| ${index.name} | ${index.display_code} | ${q.price.toFixed(2)} | ${sign(q.change)}${q.change.toFixed(2)} | ${sign(q.change_pct)}${q.change_pct.toFixed(2)}% |`,
      );
    }
    const b = cn.breadth!;
    expect(markdown).toContain(`上涨 ${b.advancers} 家，下跌 ${b.decliners} 家，平盘 ${b.flat} 家`);
    expect(markdown).toContain(`涨停 ${b.limit_up} 家，跌停 ${b.limit_down} 家`);
  });

  it("the history Markdown (buildMarkdownReport) holds the review once, labels sample data and ends with the disclaimer", async () => {
    const { record, markdown } = await runMarketReview(job(), { newsChain: noNews });
    const news = await db().analysisNews.findMany({ where: { historyId: record.id } });
    const md = buildMarkdownReport({
      report: toAnalysisReport(record),
      news,
      dataSource: record.dataSource,
      region: record.region,
    });
    expect(md.startsWith("# 大盘复盘（A股）\n")).toBe(true);
    expect(md).toContain("## 复盘内容");
    // The body as stored (no title, no disclaimer of its own) appears whole under that heading.
    const body = markdown.split("\n").slice(2).join("\n").split("\n---\n")[0]!.trim();
    expect(md).toContain(body);
    expect(md).toContain("### A股：指数表现");
    expect(md).toContain("sample (样本数据，非真实行情)");
    expect(md.match(/免责声明/g)).toHaveLength(1);
    expect(md).not.toMatch(/undefined|NaN|\[object Object\]/);
  });

  it("report_language en: English name, text and payload; region both = cn + us", async () => {
    const { record, markdown, payload } = await runMarketReview(job({ region: "both", language: "en-US" }), {
      newsChain: noNews,
    });
    expect(record).toMatchObject({
      stockName: "Market review",
      reportLanguage: "en",
      region: "both",
      targetKey: "review:both",
      market: "both",
    });
    expect(payload.regions).toEqual(["cn", "us"]);
    expect(markdown.startsWith("# Market review (China A-shares + US) 2026-11-20\n")).toBe(true);
    expect(markdown).toContain("### China A-shares: indices");
    expect(markdown).toContain("### US: indices");
    const us = await independentOverview("us");
    for (const index of us.indices)
      expect(markdown).toContain(`| ${index.name_en} | ${index.display_code} | ${index.quote!.price.toFixed(2)} |`);
    const diagnostics = JSON.parse(record.diagnostics!);
    expect(Object.keys(diagnostics.components)).toEqual(["overview_cn", "overview_us", "news", "review_rules", "llm"]);
    expect(toAnalysisReport(record).meta.stock_name).toBe("Market review");
  });

  it("market news: one query per region, items stored as the record's news and listed in the review", async () => {
    const items: TNewsItem[] = [
      {
        title: "A股三大指数收涨",
        snippet: "沪指涨0.5%",
        url: "https://news.example.com/1",
        source: "财联社",
        published_at: "2026-11-20T08:00:00.000Z",
      },
      {
        title: "北向资金净流入",
        snippet: "",
        url: "https://news.example.com/2",
        source: "证券时报",
        published_at: null,
      },
    ];
    const { chain, queries } = newsChain(items);
    const { record, payload, markdown } = await runMarketReview(job({ region: "both" }), { newsChain: chain });
    expect(queries).toEqual(["A股 大盘 收盘 复盘 上证指数", "US stock market close S&P 500 Nasdaq Dow Jones"]);
    // The same URLs come back for us: de-duplicated, kept under the first region.
    expect(payload.news.map((n) => [n.region, n.url])).toEqual([
      ["cn", "https://news.example.com/1"],
      ["cn", "https://news.example.com/2"],
    ]);
    expect(markdown).toContain("- [A股三大指数收涨](https://news.example.com/1) (财联社 · 2026-11-20)");
    const rows = await db().analysisNews.findMany({ where: { historyId: record.id }, orderBy: { position: "asc" } });
    expect(rows.map((r) => [r.title, r.snippet, r.url])).toEqual([
      ["A股三大指数收涨", "沪指涨0.5%", "https://news.example.com/1"],
      ["北向资金净流入", "", "https://news.example.com/2"],
    ]);
    expect(JSON.parse(record.diagnostics!).components.news).toMatchObject({
      status: "ok",
      details: { provider: "tavily", record_count: 2 },
    });
  });

  it("no market data at all → MarketReviewUnavailableError, nothing stored", async () => {
    const nothing = async (region: "cn" | "hk" | "us"): Promise<TMarketOverview> => ({
      region,
      as_of: AT.toISOString(),
      source: null,
      indices: [
        {
          canonical_id: "HSI",
          display_code: "HSI",
          name: "恒生指数",
          name_en: "Hang Seng Index",
          quote: null,
          source: null,
          error: "no market data for quote of hk index HSI: yahoo (timeout)",
        },
      ],
      breadth: null,
      breadth_note: "yahoo: has no market-breadth data",
      sectors: null,
      sectors_note: "yahoo: has no sector rankings",
    });
    await expect(runMarketReview(job({ region: "hk" }), { overview: nothing, newsChain: noNews })).rejects.toThrow(
      MarketReviewUnavailableError,
    );
    await expect(runMarketReview(job({ region: "hk" }), { overview: nothing, newsChain: noNews })).rejects.toThrow(
      /No market data for the market review \(hk\): hk: no market data for quote of hk index HSI/,
    );
    const failing = async (): Promise<TMarketOverview> => {
      throw new Error("provider exploded");
    };
    await expect(runMarketReview(job({ region: "both" }), { overview: failing, newsChain: noNews })).rejects.toThrow(
      /cn: overview failed; us: overview failed/,
    );
    expect(await db().analysisHistory.count()).toBe(0);
  });

  it("one region without data in both: the review goes on with a degraded stage and a risk note", async () => {
    const real = (region: "cn" | "hk" | "us") => marketOverview(region, { chain: sampleChain });
    const overview = async (region: "cn" | "hk" | "us") =>
      region === "us"
        ? { ...(await real("us")), indices: [], breadth: null, source: null, breadth_note: "none" }
        : real(region);
    const { record, payload } = await runMarketReview(job({ region: "both" }), { overview, newsChain: noNews });
    const diagnostics = JSON.parse(record.diagnostics!);
    expect(diagnostics.components.overview_us).toMatchObject({
      status: "degraded",
      message: "no index quote and no breadth",
    });
    expect(diagnostics.status).toBe("degraded");
    expect(payload.risks).toContain("美股缺少涨跌家数数据，市场温度仅按指数计算。");
    expect(payload.market_light.score).toBe(reviewMarkets(payload)[0]!.market_light.score);
  });

  it("an aborted signal stops the run before anything is stored", async () => {
    const controller = new AbortController();
    controller.abort(new Error("task cancelled"));
    await expect(runMarketReview(job({ signal: controller.signal }), { newsChain: noNews })).rejects.toThrow(
      "task cancelled",
    );
    expect(await db().analysisHistory.count()).toBe(0);
  });

  it("latestMarketReview: the most recent review, per region when asked", async () => {
    expect(await latestMarketReview()).toBeNull();
    const first = await runMarketReview(job({ region: "cn" }), { newsChain: noNews });
    const second = await runMarketReview(job({ region: "us" }), { newsChain: noNews });
    const third = await runMarketReview(job({ region: "cn", language: "en" }), { newsChain: noNews });
    expect((await latestMarketReview())?.record.id).toBe(third.record.id);
    const cn = await latestMarketReview("cn");
    expect(cn?.record.id).toBe(third.record.id);
    expect(cn?.report).toBe(third.markdown);
    expect(cn?.payload).toEqual(third.payload);
    expect((await latestMarketReview("us"))?.record.id).toBe(second.record.id);
    expect(await latestMarketReview("hk")).toBeNull();
    expect(first.record.id).toBeLessThan(second.record.id);
  });

  it("getMarketReviewParts on a record without a stored review degrades to its summary", async () => {
    const { record } = await runMarketReview(job(), { newsChain: noNews });
    const bare = { ...record, rawResult: "not json", contextSnapshot: "not json" };
    expect(getMarketReviewParts(bare)).toEqual({ report: record.analysisSummary, payload: null, region: "cn" });
  });
});
