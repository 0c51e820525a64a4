import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { getDailyBars } from "@/lib/market/bars/daily-bars";
import { indexStrip, STRIP_DAYS } from "./index-strip";
import { marketOverview } from "./overview";
import type { ChainOptions } from "./providers/chain";
import { createSampleProvider } from "./providers/sample";
import type { MarketDataProvider } from "./providers/types";
import { clearQuoteCache } from "./quote-cache";
import { listIndexEntries } from "./symbols";

// The Market page shows the region's indices on load. The strip is the overview's quotes plus each
// index's last 60 closes, and a failing index or a silent provider leaves the other rows (and the page) intact.

withTempDatabase("index-strip", { MARKET_DATA_SOURCES: "sample", SAMPLE_LATENCY_MS: "0" });

const sample = createSampleProvider({ latencyMs: () => 0 });
const chainOf = (...providers: MarketDataProvider[]): ChainOptions => ({ providers, timeoutMs: 300, retries: 0 });
const entriesOf = (region: "cn" | "hk" | "us") => listIndexEntries().filter((e) => e.region === region);

beforeEach(() => {
  clearQuoteCache();
  setClock(() => new Date("2026-11-20T12:00:00Z")); // Friday, after the A-share close
});

afterEach(() => {
  setClock(null);
  clearQuoteCache();
});

describe("indexStrip on sample data", () => {
  it("every registered cn index with the overview's quote, 60 closes ending at the quoted price, and the breadth", async () => {
    const strip = await indexStrip("cn");
    const overview = await marketOverview("cn");
    expect(strip.region).toBe("cn");
    expect(strip.is_sample).toBe(true);
    expect(strip.indices.map((row) => row.canonical_id)).toEqual(entriesOf("cn").map((e) => e.canonicalId));
    expect(strip.indices.map((row) => row.quote)).toEqual(overview.indices.map((index) => index.quote));
    expect(strip.breadth).toEqual(overview.breadth);
    expect(strip.breadth_note).toBeNull();
    for (const row of strip.indices) {
      expect(row).toMatchObject({ quote_source: "sample", quote_error: null, bars_source: "sample", bars_error: null });
      expect(row.closes).toHaveLength(STRIP_DAYS);
      // One price: the line ends where the quote stands.
      expect(row.closes.at(-1)!.close).toBe(row.quote!.price);
      expect(row.quote!.low! <= row.quote!.price && row.quote!.price <= row.quote!.high!).toBe(true);
    }
    // After the close the quote is the last final bar, so the line is exactly the cached daily closes.
    const symbol = { kind: "index" as const, market: "cn" as const, code: "000300.SH", canonicalId: "000300.SH" };
    const bars = (await getDailyBars(symbol, STRIP_DAYS)).bars;
    expect(strip.indices.find((row) => row.canonical_id === "000300.SH")!.closes).toEqual(
      bars.map((b) => ({ date: b.date, close: b.close })),
    );
  });

  it("a shorter window gives as many closes as asked", async () => {
    const strip = await indexStrip("hk", { days: 20 });
    expect(strip.indices.map((row) => row.display_code)).toEqual(entriesOf("hk").map((e) => e.displayCode));
    for (const row of strip.indices) expect(row.closes).toHaveLength(20);
  });

  it("one failing index shows its reason and the others keep their data", async () => {
    const failingSpx: MarketDataProvider = {
      ...sample,
      async dailyBars(symbol, days, ctx) {
        if (symbol.code === "SPX") throw new Error("SPX feed down");
        return sample.dailyBars(symbol, days, ctx);
      },
      async quote(symbol, ctx) {
        if (symbol.code === "SPX") throw new Error("SPX feed down");
        return sample.quote(symbol, ctx);
      },
    };
    const strip = await indexStrip("us", { chain: chainOf(failingSpx) });
    const spx = strip.indices.find((row) => row.canonical_id === "SPX")!;
    expect(spx).toMatchObject({ quote: null, quote_source: null, closes: [], bars_source: null });
    expect(spx.quote_error).toMatch(/no market data for quote of us index SPX: sample \(error: SPX feed down\)/);
    expect(spx.bars_error).toMatch(/SPX feed down/);
    const others = strip.indices.filter((row) => row.canonical_id !== "SPX");
    expect(others.length).toBe(entriesOf("us").length - 1);
    for (const row of others) {
      expect(row.quote?.source).toBe("sample");
      expect(row.closes).toHaveLength(STRIP_DAYS);
    }
    expect(strip.is_sample).toBe(true);
  });

  it("a provider that does not answer within the budget gives rows without data, not a hang or a throw", async () => {
    const silent: MarketDataProvider = {
      ...sample,
      dailyBars: (_symbol, _days, ctx) =>
        new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason))),
      quote: (_symbol, ctx) =>
        new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason))),
    };
    const started = Date.now();
    const strip = await indexStrip("hk", { chain: chainOf(silent), budgetMs: 50 });
    // The provider never answers: without the budget this would never return.
    expect(Date.now() - started).toBeLessThan(2000);
    expect(strip.is_sample).toBe(false);
    expect(strip.breadth).toBeNull();
    expect(strip.breadth_note).toBe("no answer within 50 ms");
    for (const row of strip.indices) {
      expect(row).toMatchObject({
        quote: null,
        closes: [],
        quote_error: "no answer within 50 ms",
        bars_error: "no answer within 50 ms",
      });
    }
    // Let the abandoned reads end (chain timeout 300 ms) before the database goes away.
    await new Promise((resolve) => setTimeout(resolve, 400));
  });
});
