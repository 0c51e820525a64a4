import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { sampleFxRate } from "@/lib/market/providers/sample";
import { parseYahooFxRate } from "@/lib/market/providers/yahoo";
import { refreshFxRates } from "./fx-refresh";
import { portfolioSnapshot } from "./snapshot";
import { createAccount, createTrade } from "./store";

const temp = withTempDatabase("portfolio-fx", { MARKET_DATA_SOURCES: "sample" });
const NOW = new Date("2026-11-20T04:00:00Z");

beforeEach(async () => {
  setClock(() => NOW);
  temp.useSettings({ MARKET_DATA_SOURCES: "sample" });
  await db().portfolioAccount.deleteMany();
  await db().portfolioFxRate.deleteMany();
});

describe("POST /portfolio/fx/refresh and fx_stale (docs/api.md §12.1.13)", () => {
  it("fetches each currency the accounts use from the sample provider, stores it with its date, and the snapshot is no longer stale", async () => {
    const account = await createAccount({ name: "cny" });
    await createTrade({
      account_id: account.id,
      symbol: "AAPL",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 10,
      price: 150,
    });
    await createTrade({
      account_id: account.id,
      symbol: "00700",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 100,
      price: 400,
    });
    // Before any refresh the built-in fallback rates are in use: stale.
    expect((await portfolioSnapshot({ account_id: account.id, as_of: "2026-11-20" })).fx_stale).toBe(true);

    const result = await refreshFxRates({});
    expect(result).toMatchObject({
      as_of: "2026-11-20",
      account_count: 1,
      refresh_enabled: true,
      disabled_reason: null,
      pair_count: 2,
      updated_count: 2,
      stale_count: 0,
      error_count: 0,
    });
    const usd = sampleFxRate("USD", NOW)!;
    expect(result.pairs.find((p) => p.currency === "USD")).toMatchObject({
      status: "updated",
      rate: usd.rate,
      rate_date: "2026-11-20",
      source: "sample",
    });
    expect(await db().portfolioFxRate.count()).toBe(2);
    // A second refresh on the same day updates the day's rate, it does not add one.
    await refreshFxRates({ account_id: account.id });
    expect(await db().portfolioFxRate.count()).toBe(2);

    const snapshot = await portfolioSnapshot({ account_id: account.id, as_of: "2026-11-20" });
    expect(snapshot.fx_stale).toBe(false);
    expect(snapshot.total_cash).toBeCloseTo(-1500 * usd.rate - 40_000 * sampleFxRate("HKD", NOW)!.rate, 2);
    // Judged from a later day the same rates are older than 3 days: stale.
    expect((await portfolioSnapshot({ account_id: account.id, as_of: "2026-11-24" })).fx_stale).toBe(true);
    expect((await portfolioSnapshot({ account_id: account.id, as_of: "2026-11-23" })).fx_stale).toBe(false);
  });

  it("PORTFOLIO_FX_RATES overrides the fetched rates; a pair that fails keeps its stored rate (stale) or has none (error)", async () => {
    const account = await createAccount({ name: "aud", base_currency: "AUD" });
    await createTrade({
      account_id: account.id,
      symbol: "AAPL",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 10,
      price: 150,
    });
    await refreshFxRates({});
    temp.useSettings({ MARKET_DATA_SOURCES: "sample", PORTFOLIO_FX_RATES: "USD=8,AUD=4" });
    const manual = await portfolioSnapshot({ account_id: account.id, as_of: "2026-11-20" });
    expect(manual.fx_stale).toBe(false);
    expect(manual.total_cash).toBeCloseTo((-1500 * 8) / 4, 6);

    temp.useSettings({ MARKET_DATA_SOURCES: "sample" });
    const first = await refreshFxRates({});
    // AUD: the sample has no such rate and none is stored.
    expect(first).toMatchObject({ pair_count: 2, updated_count: 1, stale_count: 0, error_count: 1 });
    expect(first.pairs.find((p) => p.currency === "AUD")).toMatchObject({ status: "error", rate: null });
    await db().portfolioFxRate.create({
      data: { currency: "AUD", rate: 4.6, rateDate: "2026-11-10", source: "manual-test", fetchedAt: NOW },
    });
    const second = await refreshFxRates({});
    expect(second).toMatchObject({ updated_count: 1, stale_count: 1, error_count: 0 });
    expect(second.pairs.find((p) => p.currency === "AUD")).toMatchObject({
      status: "stale",
      rate: 4.6,
      rate_date: "2026-11-10",
    });
    expect((await portfolioSnapshot({ account_id: account.id, as_of: "2026-11-20" })).fx_stale).toBe(true);
  });

  it("without an FX provider in MARKET_DATA_SOURCES the refresh is disabled, with the reason", async () => {
    await createAccount({ name: "usd", base_currency: "USD" });
    temp.useSettings({ MARKET_DATA_SOURCES: "csv", CSV_DATA_DIR: path.join(temp.dir, "csv") });
    expect(await refreshFxRates({})).toMatchObject({
      refresh_enabled: false,
      disabled_reason: expect.stringContaining("csv"),
      pair_count: 1,
      updated_count: 0,
    });
  });

  it("Yahoo's pair chart (USDCNY=X) gives the rate and its session date", () => {
    const body = JSON.stringify({
      chart: {
        result: [
          { meta: { currency: "CNY", symbol: "USDCNY=X", regularMarketPrice: 7.1234, regularMarketTime: 1763611200 } },
        ],
        error: null,
      },
    });
    expect(parseYahooFxRate(body)).toEqual({ rate: 7.1234, date: "2025-11-20", source: "yahoo" });
    expect(
      parseYahooFxRate(
        JSON.stringify({ chart: { result: null, error: { code: "Not Found", description: "No data" } } }),
      ),
    ).toBeNull();
  });
});
