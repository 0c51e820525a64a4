import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import type { ChainOptions } from "./providers/chain";
import { createSampleProvider } from "./providers/sample";
import type { MarketDataProvider, TMarketSymbol } from "./providers/types";
import { clearQuoteCache, getQuote, QUOTE_TTL_MS } from "./quote-cache";
import { lastClosedTradingDay, zonedIso } from "./market-time";

afterEach(() => {
  setClock(null);
  clearQuoteCache();
});

const aapl: TMarketSymbol = { kind: "stock", market: "us", code: "AAPL" };

function counting(): { chain: ChainOptions; calls: () => number } {
  const inner = createSampleProvider({ latencyMs: () => 5 });
  let n = 0;
  const provider: MarketDataProvider = {
    ...inner,
    quote: (s, ctx) => {
      n += 1;
      return inner.quote(s, ctx);
    },
  };
  return { chain: { providers: [provider], timeoutMs: 1000 }, calls: () => n };
}

describe("quote cache", () => {
  it("quotes are cached for a short TTL and concurrent callers share one request", async () => {
    let t = Date.parse("2026-11-20T22:00:00Z");
    setClock(() => new Date(t));
    const { chain, calls } = counting();
    const [a, b] = await Promise.all([getQuote(aapl, chain), getQuote(aapl, chain)]);
    expect(a.data).toEqual(b.data);
    expect(calls()).toBe(1);
    t += QUOTE_TTL_MS - 1;
    expect((await getQuote(aapl, chain)).cached).toBe(true);
    t += 2;
    expect((await getQuote(aapl, chain)).cached).toBe(false);
    expect(calls()).toBe(2);
    expect(a.data.source).toBe("sample");
  });

  it("refresh (force_refresh) asks the provider again and keeps the new quote for the next caller", async () => {
    const t = Date.parse("2026-11-20T22:00:00Z");
    setClock(() => new Date(t));
    const { chain, calls } = counting();
    await getQuote(aapl, chain);
    expect((await getQuote(aapl, chain, { refresh: true })).cached).toBe(false);
    expect(calls()).toBe(2);
    expect((await getQuote(aapl, chain)).cached).toBe(true);
    expect(calls()).toBe(2);
  });
});

describe("market time", () => {
  it("last closed session per market (weekdays; after the local close)", () => {
    expect(lastClosedTradingDay("cn", new Date("2026-11-20T06:59:00Z"))).toBe("2026-11-19"); // 14:59 Beijing
    expect(lastClosedTradingDay("cn", new Date("2026-11-20T07:00:00Z"))).toBe("2026-11-20");
    expect(lastClosedTradingDay("us", new Date("2026-11-23T02:00:00Z"))).toBe("2026-11-20"); // Sunday evening NY
    expect(zonedIso("2026-07-24", "16:00:01", "America/New_York")).toBe("2026-07-24T16:00:01-04:00");
    expect(zonedIso("2026-01-05", "16:00:00", "America/New_York")).toBe("2026-01-05T16:00:00-05:00");
  });
});
