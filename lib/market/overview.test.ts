import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { bodyResponse, fixtureText, replay } from "@/tests/kits/market-replay";
import { aShareLimitPct, BREADTH_SECIDS, marketOverview, parseEastmoneyBreadth, ZMarketOverview } from "./overview";
import type { ChainOptions } from "./providers/chain";
import { createEastmoneyProvider } from "./providers/eastmoney";
import { createSampleProvider } from "./providers/sample";
import type { TMarketSymbol } from "./providers/types";
import { clearQuoteCache } from "./quote-cache";

const ULIST = "eastmoney/ulist-np-advancers-decliners.json";
const sample = createSampleProvider({ latencyMs: () => 0 });
const eastmoney = createEastmoneyProvider();
const chainOf = (...providers: ChainOptions["providers"]): ChainOptions => ({ providers, timeoutMs: 2000, retries: 0 });
const isUlist = (url: URL) => url.pathname === "/api/qt/ulist.np/get";

beforeEach(() => {
  clearQuoteCache();
  setClock(() => new Date("2026-11-20T12:00:00Z")); // Friday, after the A-share close
});

afterEach(() => {
  vi.unstubAllGlobals();
  setClock(null);
  clearQuoteCache();
});

describe("Eastmoney breadth (ulist.np/get) against the recorded body", () => {
  it("f104/f105/f106 per secid, in request order, summed over SH, SZ, BJ", () => {
    expect(parseEastmoneyBreadth(fixtureText(ULIST))).toEqual({
      advancers: 550 + 564 + 72,
      decliners: 1757 + 2337 + 266,
      flat: 42 + 32 + 5,
      limit_up: null,
      limit_down: null,
      limit_note: expect.stringMatching(/limit-up\/limit-down .* not recorded|no provider body/),
      universe: "SH, SZ, BJ A-shares",
      total_amount: null,
      by_exchange: [
        { exchange: "SH", advancers: 550, decliners: 1757, flat: 42 },
        { exchange: "SZ", advancers: 564, decliners: 2337, flat: 32 },
        { exchange: "BJ", advancers: 72, decliners: 266, flat: 5 },
      ],
      source: "eastmoney",
    });
  });

  it("no data, '-' counts and garbage", () => {
    expect(parseEastmoneyBreadth('{"rc":100,"data":null}')).toBeNull();
    expect(parseEastmoneyBreadth('{"rc":0,"data":{"total":1,"diff":[{"f104":"-","f105":"-","f106":"-"}]}}')).toBeNull();
    // A 0 is a real count, never "missing".
    expect(parseEastmoneyBreadth('{"rc":0,"data":{"total":1,"diff":[{"f104":0,"f105":0,"f106":12}]}}')).toMatchObject({
      advancers: 0,
      decliners: 0,
      flat: 12,
      universe: "SH A-shares",
    });
    expect(() => parseEastmoneyBreadth("<html>")).toThrow(/neither JSON nor JSONP/);
    expect(() => parseEastmoneyBreadth('{"rc":0,"data":{"diff":"x"}}')).toThrow(/unexpected body/);
  });

  it("A-share limit sizes by board", () => {
    expect([
      aShareLimitPct("600519"),
      aShareLimitPct("000001"),
      aShareLimitPct("300750"),
      aShareLimitPct("688004"),
      aShareLimitPct("920200"),
      aShareLimitPct("510300"),
    ]).toEqual([10, 10, 20, 20, 30, null]);
  });
});

describe("marketOverview from recorded bodies (fetch replayed)", () => {
  it("cn breadth from the recorded ulist reply; index quotes fall through to the next provider", async () => {
    const { calls } = replay([[isUlist, bodyResponse(fixtureText(ULIST))]]);
    const overview = await marketOverview("cn", { chain: chainOf(eastmoney, sample) });
    expect(ZMarketOverview.parse(overview)).toEqual(overview);
    expect(overview.breadth).toMatchObject({
      advancers: 1186,
      decliners: 4360,
      flat: 79,
      source: "eastmoney",
      limit_up: null,
    });
    expect(overview.breadth_note).toBeNull();
    // Eastmoney's stock/get is not answered here (no recorded index reply), so quotes come from the sample.
    expect(overview.indices.map((i) => i.canonical_id)).toEqual([
      "000001.SH",
      "399001.SZ",
      "000300.SH",
      "000905.SH",
      "000852.SH",
      "399006.SZ",
      "000688.SH",
      "000016.SH",
    ]);
    expect(overview.indices.every((i) => i.source === "sample" && i.quote !== null && i.error === null)).toBe(true);
    expect(overview.source).toBe("mixed");
    expect(overview.sectors).toBeNull();
    expect(overview.sectors_note).toMatch(/eastmoney: no recorded sector-ranking body/);
    const ulist = calls.find(isUlist)!;
    expect(ulist.searchParams.get("secids")).toBe(BREADTH_SECIDS.map((s) => s.secid).join(","));
    expect(ulist.searchParams.get("fields")).toBe("f104,f105,f106");
    expect(calls.some((u) => u.pathname === "/api/qt/stock/get" && u.searchParams.get("secid") === "1.000001")).toBe(
      true,
    );
  });

  it("with Eastmoney alone and no index reply, each index carries its reason and no quote", async () => {
    replay([[isUlist, bodyResponse(fixtureText(ULIST))]]);
    const overview = await marketOverview("cn", { chain: chainOf(eastmoney) });
    expect(overview.source).toBe("eastmoney");
    expect(overview.indices[0]).toMatchObject({
      canonical_id: "000001.SH",
      name: "上证指数",
      quote: null,
      source: null,
    });
    expect(overview.indices[0]!.error).toMatch(
      /no market data for quote of cn index 000001.SH: eastmoney \(transient: network error/,
    );
  });

  it("hk and us: no recorded breadth reply → breadth null with the reason; a garbage ulist reply is a reason too", async () => {
    replay([[isUlist, bodyResponse("garbage")]]);
    const hk = await marketOverview("hk", { chain: chainOf(eastmoney, { unknown: "sina" }) });
    expect(hk.breadth).toBeNull();
    expect(hk.breadth_note).toBe("eastmoney: no recorded breadth reply for hk, not fetched");
    expect(hk.indices.map((i) => i.canonical_id)).toEqual(["HSI", "HSTECH", "HSCEI"]);
    const cn = await marketOverview("cn", { chain: chainOf(eastmoney) });
    expect(cn.breadth).toBeNull();
    expect(cn.breadth_note).toMatch(/^eastmoney: .*neither JSON nor JSONP/);
    expect(cn.source).toBeNull();
  });
});

describe("marketOverview with MARKET_DATA_SOURCES=sample", () => {
  async function sampleQuotes(market: "cn" | "hk" | "us", codes: string[]) {
    const signal = new AbortController().signal;
    const out = [];
    for (const code of codes) {
      const symbol: TMarketSymbol = { kind: "stock", market, code };
      out.push((await sample.quote(symbol, { signal }))!);
    }
    return out;
  }

  async function sampleChanges(market: "cn" | "hk" | "us", codes: string[]): Promise<number[]> {
    return (await sampleQuotes(market, codes)).map((q) => q.change_pct);
  }

  it("deterministic, labelled sample, breadth counted from the sample quotes", async () => {
    const chain = chainOf(sample);
    const first = await marketOverview("cn", { chain });
    clearQuoteCache();
    const second = await marketOverview("cn", { chain });
    expect(second).toEqual(first);
    expect(first.source).toBe("sample");
    expect(first.indices).toHaveLength(8);
    expect(first.indices.every((i) => i.source === "sample" && i.quote?.source === "sample")).toBe(true);
    const quotes = await sampleQuotes("cn", ["600519", "000001", "300750", "601318", "000858", "601398", "600900"]);
    const changes = quotes.map((q) => q.change_pct);
    expect(first.breadth).toEqual({
      advancers: changes.filter((c) => c > 0).length,
      decliners: changes.filter((c) => c < 0).length,
      flat: changes.filter((c) => c === 0).length,
      limit_up: changes.filter((c, i) => c >= (i === 2 ? 19.9 : 9.9)).length,
      limit_down: changes.filter((c, i) => c <= (i === 2 ? -19.9 : -9.9)).length,
      limit_note: null,
      universe: "sample catalogue: 7 cn stocks",
      // The turnover is the sum of the counted quotes' amounts.
      total_amount: quotes.reduce((sum, q) => sum + q.amount!, 0),
      by_exchange: [],
      source: "sample",
    });
    expect(first.sectors).toBeNull();
    expect(first.sectors_note).toBe("sample: the sample catalogue has no sectors");
    expect(first.as_of).toBe("2026-11-20T12:00:00.000Z");
  });

  it("us and hk: no daily limits, counted over their catalogue stocks", async () => {
    const us = await marketOverview("us", { chain: chainOf(sample) });
    expect(us.indices.map((i) => i.canonical_id)).toEqual(["SPX", "IXIC", "NDX", "DJI"]);
    expect(us.breadth).toMatchObject({
      universe: "sample catalogue: 6 us stocks",
      limit_up: null,
      limit_down: null,
      limit_note: "us stocks have no daily price limit",
    });
    const changes = await sampleChanges("us", ["AAPL", "TSLA", "NVDA", "MSFT", "GOOGL", "AMZN"]);
    expect(us.breadth!.advancers).toBe(changes.filter((c) => c > 0).length);
    const hk = await marketOverview("hk", { chain: chainOf(sample) });
    expect(hk.breadth!.advancers + hk.breadth!.decliners + hk.breadth!.flat).toBe(4);
  });
});
