import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { getDailyBars, getQuote } from "@/lib/market";
import { localParts, MARKET_TIME_ZONE } from "@/lib/market/market-time";
import { clearQuoteCache } from "@/lib/market/quote-cache";
import { portfolioRisk } from "./risk";
import { createAccount, createTrade, deleteTrade, listPositions, resolveTradeSymbol } from "./store";

withTempDatabase("portfolio", { MARKET_DATA_SOURCES: "sample", PORTFOLIO_FX_RATES: "USD=7,HKD=0.9" });
const TODAY = new Date("2026-11-20T12:00:00Z"); // Friday evening in Shanghai
const AS_OF = "2026-11-20";

beforeEach(async () => {
  // A quote another test file left in the cache (its clock, its data sources) is not this file's.
  clearQuoteCache();
  setClock(() => TODAY);
  await db().portfolioAccount.deleteMany();
});

/** Prices by session as an analysis shows them: final closes, and a quote at least as new as the last bar is its session's price. */
async function closes(code: string): Promise<Map<string, number>> {
  const symbol = resolveTradeSymbol(code);
  const bars = (await getDailyBars(symbol, 250)).bars;
  const map = new Map(bars.map((b) => [b.date, b.close]));
  const quote = (await getQuote(symbol)).data;
  const quoteDate = localParts(new Date(quote.time), MARKET_TIME_ZONE[symbol.market]).date;
  if (quoteDate >= bars.at(-1)!.date) map.set(quoteDate, quote.price);
  return map;
}

describe("portfolio positions and risk", () => {
  it("trades keep the cached positions current; an oversell is refused and nothing is stored", async () => {
    const account = await createAccount({ name: "main", base_currency: "CNY" });
    await createTrade({
      account_id: account.id,
      side: "buy",
      symbol: "600519",
      quantity: 100,
      price: 1400,
      fee: 5,
      trade_date: "2026-03-02",
    });
    const sellTrade = await createTrade({
      account_id: account.id,
      side: "sell",
      symbol: "sh600519",
      quantity: 40,
      price: 1500,
      fee: 0,
      trade_date: "2026-04-01",
    });
    let positions = (await listPositions(account.id)).items;
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ symbol: "600519", quantity: 60 });
    expect(positions[0]!.avg_cost).toBeCloseTo(1400.05, 8);

    await expect(
      createTrade({
        account_id: account.id,
        side: "sell",
        symbol: "600519",
        quantity: 61,
        price: 1500,
        fee: 0,
        trade_date: "2026-05-01",
      }),
    ).rejects.toMatchObject({ status: 409, code: "portfolio_oversell" });
    // A sell dated before the buy is an oversell at its date.
    await expect(
      createTrade({
        account_id: account.id,
        side: "sell",
        symbol: "600519",
        quantity: 1,
        price: 1500,
        fee: 0,
        trade_date: "2026-01-02",
      }),
    ).rejects.toMatchObject({ status: 409, code: "portfolio_oversell" });
    expect(await db().portfolioTrade.count()).toBe(2);

    await deleteTrade(sellTrade.id);
    positions = (await listPositions(account.id)).items;
    expect(positions[0]!.quantity).toBe(100);
  });

  it("values positions at the price an analysis shows for as_of, converts currencies, and derives weights, HHI, volatility and VaR from the same prices", async () => {
    const account = await createAccount({ name: "mixed", base_currency: "CNY" });
    await createTrade({
      account_id: account.id,
      side: "buy",
      symbol: "600519",
      quantity: 10,
      price: 1500,
      fee: 0,
      trade_date: "2025-01-02",
    });
    await createTrade({
      account_id: account.id,
      side: "buy",
      symbol: "AAPL",
      quantity: 50,
      price: 150,
      fee: 0,
      trade_date: "2025-01-02",
    });
    const risk = await portfolioRisk({ account_id: account.id, as_of: AS_OF, cost_method: "fifo" });

    const moutai = await closes("600519");
    const apple = await closes("AAPL");
    const mv1 = 10 * moutai.get(AS_OF)!;
    const lastApple = [...apple.entries()].filter(([d]) => d <= AS_OF).at(-1)![1];
    const mv2 = 50 * lastApple * 7;
    const total = mv1 + mv2;
    expect(risk.concentration.total_market_value).toBeCloseTo(total, 1);
    const weights = [mv1 / total, mv2 / total].sort((a, b) => b - a);
    expect(risk.concentration.top_weight_pct).toBeCloseTo(weights[0]! * 100, 1);
    expect(risk.concentration.hhi).toBeCloseTo(weights[0]! ** 2 + weights[1]! ** 2, 3);
    expect(risk.concentration.alert).toBe(weights[0]! > 0.3);
    // No sector source: one UNCLASSIFIED row holds everything, and the headline follows it.
    expect(risk.sector_concentration.top_sectors).toEqual([
      expect.objectContaining({ sector: "UNCLASSIFIED", weight_pct: 100, symbol_count: 2, is_alert: true }),
    ]);
    expect(risk.sector_concentration).toMatchObject({ available: false, top_weight_pct: 100, alert: true });
    expect(risk.exposure.by_currency.map((e) => e.key).sort()).toEqual(["CNY", "USD"]);
    // 07:00 in New York: the US bars end yesterday and the quote stands for today (the sample's today bar);
    // 20:00 in Shanghai: the quote is of the day's closed session.
    const bars = (await getDailyBars(resolveTradeSymbol("AAPL"), 250)).bars;
    expect(bars.at(-1)!.date < AS_OF).toBe(true);
    expect(risk.positions.find((p) => p.symbol === "AAPL")).toMatchObject({
      last_price: lastApple,
      price_date: AS_OF,
      price_source: "realtime_quote",
    });
    expect(risk.positions.find((p) => p.symbol === "600519")).toMatchObject({
      last_price: moutai.get(AS_OF),
      price_date: AS_OF,
      price_source: "realtime_quote",
    });

    // Daily returns of the fixed basket over the 180-day window, computed here from the closes.
    const start = "2026-05-24";
    const dates = [...new Set([...moutai.keys(), ...apple.keys()])].filter((d) => d >= start && d <= AS_OF).sort();
    const last = (m: Map<string, number>, d: string) => [...m.entries()].filter(([x]) => x <= d).at(-1)?.[1];
    const returns: number[] = [];
    for (let i = 1; i < dates.length; i++) {
      const [p, c] = [dates[i - 1]!, dates[i]!];
      const before = 10 * last(moutai, p)! + 50 * 7 * last(apple, p)!;
      const after = 10 * last(moutai, c)! + 50 * 7 * last(apple, c)!;
      returns.push(after / before - 1);
    }
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    const sd = Math.sqrt(returns.reduce((a, b) => a + (b - mean) ** 2, 0) / (returns.length - 1));
    expect(risk.volatility_pct).toBeCloseTo(sd * Math.sqrt(252) * 100, 1);
    const sorted = [...returns].sort((a, b) => a - b);
    const q5 = sorted[Math.floor(returns.length * 0.05)]!;
    expect(risk.var_95_1d!.pct).toBeGreaterThanOrEqual(-sorted[Math.ceil(returns.length * 0.05)]! * 100 - 1e-6);
    expect(risk.var_95_1d!.pct).toBeLessThanOrEqual(-q5 * 100 + 1e-6);
    expect(risk.var_95_1d!.observations).toBe(returns.length);

    // Maximum drawdown of the growth curve.
    let peak = 1;
    let curve = 1;
    let maxDd = 0;
    for (const r of returns) {
      curve *= 1 + r;
      peak = Math.max(peak, curve);
      maxDd = Math.max(maxDd, (peak - curve) / peak);
    }
    expect(risk.drawdown.max_drawdown_pct).toBeCloseTo(maxDd * 100, 1);
  });

  it("as_of in the past ignores later trades; avg and fifo costs differ; a big single position warns", async () => {
    const account = await createAccount({ name: "solo", base_currency: "CNY" });
    await createTrade({
      account_id: account.id,
      side: "buy",
      symbol: "000001",
      quantity: 1000,
      price: 10,
      fee: 0,
      trade_date: "2026-06-01",
    });
    await createTrade({
      account_id: account.id,
      side: "buy",
      symbol: "000001",
      quantity: 1000,
      price: 12,
      fee: 0,
      trade_date: "2026-07-01",
    });
    await createTrade({
      account_id: account.id,
      side: "sell",
      symbol: "000001",
      quantity: 1000,
      price: 13,
      fee: 0,
      trade_date: "2026-08-03",
    });
    const fifo = await portfolioRisk({ account_id: account.id, as_of: AS_OF, cost_method: "fifo" });
    const avg = await portfolioRisk({ account_id: account.id, as_of: AS_OF, cost_method: "avg" });
    expect(fifo.positions[0]!.cost_per_share).toBe(12);
    expect(avg.positions[0]!.cost_per_share).toBe(11);
    expect(fifo.positions[0]!.realized_pnl).toBe(3000);
    expect(avg.positions[0]!.realized_pnl).toBe(2000);
    expect(fifo.warnings.find((w) => w.code === "concentration")).toMatchObject({
      symbol: "000001",
      value: 100,
      limit: 30,
    });
    const early = await portfolioRisk({ account_id: account.id, as_of: "2026-06-15", cost_method: "fifo" });
    expect(early.positions[0]!.quantity).toBe(1000);
    await expect(portfolioRisk({ account_id: account.id, cost_method: "lifo" })).rejects.toMatchObject({
      status: 400,
      code: "validation_error",
    });
  });
});
