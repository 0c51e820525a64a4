import { describe, expect, it } from "vitest";
import { analyzeRequest } from "@/lib/analysis/analyze";
import { resolveSingleTarget } from "@/lib/analysis/request";
import { ZAnalyzeRequest } from "@/lib/analysis/schemas";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { currentPrice } from "@/lib/market";
import { marketOverview } from "@/lib/market/overview";
import { loadCockpit, READ_BUDGET_MS, SPARK_CLOSES, TILES_TTL_MS } from "./cockpit";

// The home page's one server read, on sample data.

const database = withTempDatabase("home-cockpit", {
  MARKET_DATA_SOURCES: "sample",
  STOCK_LIST: "600519,AAPL,sh600519,510300",
});

describe("loadCockpit", () => {
  it("lists the watchlist once per stock, with the one price, 30 closes and a reason for what is not a stock", async () => {
    // The price first: it also warms the reads, so the render below is an ordinary visit, not a cold start that a
    // loaded machine can push past the per-read budget (that case has its own test below).
    const price = await currentPrice(resolveSingleTarget("600519"));
    let cockpit = await loadCockpit("zh");
    if (cockpit.watchlist.some((r) => r.dataError?.startsWith("no answer within"))) cockpit = await loadCockpit("zh");
    expect(cockpit.watchlist.map((r) => r.code ?? r.token)).toEqual(["600519", "AAPL", "510300"]);
    const moutai = cockpit.watchlist[0]!;
    expect(moutai).toMatchObject({
      name: "贵州茅台",
      market: "cn",
      price: price.price,
      changePct: price.change_pct,
      latest: null,
      dataError: null,
    });
    expect(moutai.closes).toHaveLength(SPARK_CLOSES);
    expect(moutai.closes.at(-1)).toBe(price.price);
    expect(cockpit.watchlist[2]!.invalid).toMatch(/fund|ETF|基金/i);
    expect(cockpit.sampleData).toBe(true);
  });

  it("shows the indices of the markets in use and their breadth", async () => {
    const cockpit = await loadCockpit("en");
    expect(cockpit.markets).toEqual(["cn", "us"]);
    const [cn, us] = await Promise.all([marketOverview("cn"), marketOverview("us")]);
    expect(cockpit.indices.map((i) => i.code)).toEqual([...cn.indices, ...us.indices].map((i) => i.display_code));
    expect(cockpit.indices.map((i) => i.price)).toEqual(
      [...cn.indices, ...us.indices].map((i) => i.quote?.price ?? null),
    );
    expect(cockpit.breadth.map((b) => b.market)).toEqual(["cn", "us"]);
  });

  it("carries each stock's latest verdict and the open signal after an analysis", async () => {
    const result = await analyzeRequest(
      ZAnalyzeRequest.parse({ stock_code: "600519", notify: false, report_type: "simple" }),
      "trace-home",
    );
    expect(result.status).toBe(200);
    const report = result.status === 200 ? result.body.report : null;
    const cockpit = await loadCockpit("zh");
    const moutai = cockpit.watchlist[0]!;
    expect(moutai.latest).toMatchObject({
      recordId: report!.meta.id,
      action: report!.summary.action,
      score: report!.summary.sentiment_score,
    });
    const directional = ["buy", "add", "reduce", "sell", "avoid"].includes(report!.summary.action ?? "");
    if (directional) expect(cockpit.signals.map((s) => s.code)).toContain("600519");
    expect(cockpit.triggers).toEqual([]);
  });

  it("an index read that outlasts one render's budget is shown by a later render, not forgotten for the memo's lifetime", async () => {
    // Each sample call takes longer than the whole budget: the first render must go without the HK indices.
    database.useSettings({ STOCK_LIST: "00700", SAMPLE_LATENCY_MS: String(READ_BUDGET_MS + 100) });
    try {
      const first = await loadCockpit("en");
      expect(first.markets).toEqual(["hk"]);
      expect(first.indices).toEqual([]);
      // The read kept running: once it is done, a render shows its indices, well within the memo's lifetime
      // (remembering the budget's verdict instead would keep them away until TILES_TTL_MS has passed).
      const deadline = Date.now() + TILES_TTL_MS - 3000;
      let later = await loadCockpit("en");
      while (later.indices.length === 0 && Date.now() < deadline) later = await loadCockpit("en");
      expect(later.indices.length).toBeGreaterThan(0);
      expect(later.indices.every((i) => i.market === "hk")).toBe(true);
    } finally {
      database.useSettings({});
    }
  }, 20_000);
});
