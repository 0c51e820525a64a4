import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { clearQuoteCache } from "@/lib/market/quote-cache";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { getPriceSeries } from "@/lib/market";
import { portfolioRisk } from "./risk";
import { portfolioSnapshot } from "./snapshot";
import { createAccount, createTrade, resolveTradeSymbol } from "./store";

const temp = withTempDatabase("portfolio-snapshot", {
  MARKET_DATA_SOURCES: "sample",
  PORTFOLIO_FX_RATES: "USD=7,HKD=0.9",
  PORTFOLIO_BASE_CURRENCY: "CNY",
});
const AS_OF = "2026-11-20";

beforeEach(async () => {
  // A quote another test file left in the cache (its clock, its data sources) is not this file's.
  clearQuoteCache();
  setClock(() => new Date("2026-11-20T12:00:00Z"));
  temp.useSettings({
    MARKET_DATA_SOURCES: "sample",
    PORTFOLIO_FX_RATES: "USD=7,HKD=0.9",
    PORTFOLIO_BASE_CURRENCY: "CNY",
  });
  await db().portfolioAccount.deleteMany();
});

async function priceOf(code: string, asOf = AS_OF): Promise<{ price: number; date: string }> {
  const series = await getPriceSeries(resolveTradeSymbol(code), 250);
  const bar = series.bars.filter((b) => b.date <= asOf).at(-1)!;
  return { price: bar.close, date: bar.date };
}

describe("GET /portfolio/snapshot (docs/api.md §12.1.5)", () => {
  it("cash = − buys + sells − fees − taxes; FIFO and average cost; unrealized from the one price; totals agree", async () => {
    const account = await createAccount({ name: "main", base_currency: "CNY" });
    await createTrade({
      account_id: account.id,
      symbol: "600519",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 100,
      price: 1400,
      fee: 5,
      tax: 0,
    });
    await createTrade({
      account_id: account.id,
      symbol: "600519",
      trade_date: "2026-07-01",
      side: "buy",
      quantity: 100,
      price: 1600,
      fee: 5,
      tax: 0,
    });
    await createTrade({
      account_id: account.id,
      symbol: "600519",
      trade_date: "2026-08-03",
      side: "sell",
      quantity: 100,
      price: 1700,
      fee: 5,
      tax: 1.7,
    });
    const { price } = await priceOf("600519");

    const fifo = await portfolioSnapshot({ account_id: account.id, as_of: AS_OF, cost_method: "fifo" });
    const avg = await portfolioSnapshot({ account_id: account.id, as_of: AS_OF, cost_method: "avg" });
    const cash = -140_005 - 160_005 + 170_000 - 5 - 1.7;
    expect(fifo).toMatchObject({
      as_of: AS_OF,
      cost_method: "fifo",
      currency: "CNY",
      account_count: 1,
      fx_stale: false,
      fee_total: 15,
      tax_total: 1.7,
    });
    expect(fifo.total_cash).toBeCloseTo(cash, 2);
    const [book] = fifo.accounts;
    expect(book).toMatchObject({
      account_id: account.id,
      account_name: "main",
      base_currency: "CNY",
      market: "cn",
      cost_method: "fifo",
    });
    const position = book!.positions[0]!;
    expect(position).toMatchObject({
      symbol: "600519",
      market: "cn",
      currency: "CNY",
      quantity: 100,
      valuation_currency: "CNY",
      price_available: true,
      last_price: price,
      price_date: AS_OF,
    });
    expect(["realtime_quote", "history_close"]).toContain(position.price_source);
    // FIFO: the open lot is the second buy (1600.05 a share); average: 1500.05.
    expect(position.avg_cost).toBeCloseTo(1600.05, 6);
    expect(avg.accounts[0]!.positions[0]!.avg_cost).toBeCloseTo(1500.05, 6);
    expect(position.market_value_base).toBeCloseTo(100 * price, 2);
    expect(position.unrealized_pnl_base).toBeCloseTo(100 * (price - 1600.05), 2);
    // Realized: proceeds 1700 − 6.7/100 a share against the first lot (FIFO) or the average.
    expect(fifo.realized_pnl).toBeCloseTo(100 * (1700 - 0.067 - 1400.05), 2);
    expect(avg.realized_pnl).toBeCloseTo(100 * (1700 - 0.067 - 1500.05), 2);
    expect(fifo.total_equity).toBeCloseTo(fifo.total_cash + fifo.total_market_value, 2);
    expect(fifo.total_market_value).toBe(avg.total_market_value);
  });

  it("valued in the account's base currency; all accounts in PORTFOLIO_BASE_CURRENCY; a past as_of ignores later trades", async () => {
    const usd = await createAccount({ name: "us", market: "us", base_currency: "USD" });
    const cny = await createAccount({ name: "cn", base_currency: "CNY" });
    await createTrade({
      account_id: usd.id,
      symbol: "AAPL",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 10,
      price: 150,
    });
    await createTrade({
      account_id: usd.id,
      symbol: "00700",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 100,
      price: 400,
    });
    await createTrade({
      account_id: cny.id,
      symbol: "000001",
      trade_date: "2026-10-01",
      side: "buy",
      quantity: 1000,
      price: 10,
    });
    const apple = await priceOf("AAPL");
    const tencent = await priceOf("00700");

    const one = await portfolioSnapshot({ account_id: usd.id, as_of: AS_OF });
    expect(one.currency).toBe("USD");
    const hk = one.accounts[0]!.positions.find((p) => p.symbol === "00700")!;
    expect(hk).toMatchObject({ currency: "HKD", valuation_currency: "USD", last_price: tencent.price });
    expect(hk.market_value_base).toBeCloseTo((100 * tencent.price * 0.9) / 7, 2);
    expect(one.total_cash).toBeCloseTo(-1500 - (40_000 * 0.9) / 7, 2);
    const us = one.accounts[0]!.positions.find((p) => p.symbol === "AAPL")!;
    expect(us.market_value_base).toBeCloseTo(10 * apple.price, 2);

    const all = await portfolioSnapshot({ as_of: AS_OF });
    expect(all).toMatchObject({ currency: "CNY", account_count: 2 });
    expect(all.total_market_value).toBeCloseTo(
      one.total_market_value * 7 + all.accounts.find((a) => a.account_id === cny.id)!.total_market_value,
      0,
    );

    const early = await portfolioSnapshot({ as_of: "2026-07-01" });
    expect(early.accounts.find((a) => a.account_id === cny.id)!.positions).toEqual([]);
    expect(
      early.accounts.find((a) => a.account_id === usd.id)!.positions.find((p) => p.symbol === "AAPL")!.price_date! <=
        "2026-07-01",
    ).toBe(true);
    await expect(portfolioSnapshot({ cost_method: "lifo" })).rejects.toMatchObject({
      status: 400,
      code: "validation_error",
    });
  });

  it("no market data: price_source missing, valued at cost, price_available false; risk agrees and warns", async () => {
    const account = await createAccount({ name: "dark" });
    await createTrade({
      account_id: account.id,
      symbol: "601398",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 1000,
      price: 5,
    });
    temp.useSettings({ MARKET_DATA_SOURCES: "csv", CSV_DATA_DIR: path.join(temp.dir, "no-csv") });
    const snapshot = await portfolioSnapshot({ account_id: account.id, as_of: AS_OF });
    expect(snapshot.accounts[0]!.positions[0]).toMatchObject({
      price_source: "missing",
      price_available: false,
      last_price: 5,
      market_value_base: 5000,
      unrealized_pnl_base: 0,
      unrealized_pnl_pct: null,
    });
    const risk = await portfolioRisk({ account_id: account.id, as_of: AS_OF });
    expect(risk.concentration.total_market_value).toBe(snapshot.total_market_value);
    expect(risk.positions[0]).toMatchObject({ last_price: null, price_source: "missing" });
    expect(risk.warnings.map((w) => w.code)).toContain("price_unavailable");
  });

  it("a currency without a rate marks fx_stale on the account, the totals and the risk drawdown", async () => {
    temp.useSettings({ MARKET_DATA_SOURCES: "sample", PORTFOLIO_FX_RATES: "USD=7", PORTFOLIO_BASE_CURRENCY: "CNY" });
    const account = await createAccount({ name: "hk", market: "hk", base_currency: "CNY" });
    await createTrade({
      account_id: account.id,
      symbol: "00700",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 100,
      price: 400,
    });
    const snapshot = await portfolioSnapshot({ as_of: AS_OF });
    expect(snapshot.fx_stale).toBe(true);
    expect(snapshot.accounts[0]!.fx_stale).toBe(true);
    expect((await portfolioRisk({ as_of: AS_OF })).drawdown.fx_stale).toBe(true);
  });
});
