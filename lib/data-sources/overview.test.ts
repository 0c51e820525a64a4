import { beforeEach, describe, expect, it } from "vitest";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { db } from "@/lib/db/client";
import { recordProviderCall, resetProviderHealthForTests } from "@/lib/market/providers/health";
import { dataOverview } from "./overview";
import { dataSourcesStatus } from "./status";

// The data overview's states from recorded calls and stored bars: the first source answering is ok, a later one
// degraded, none unavailable; never asked is unknown, or stale over old stored bars; no source for it unconfigured.

const temp = withTempDatabase("data-overview", { MARKET_DATA_SOURCES: "eastmoney,yahoo,sample" });
const NOW = new Date("2026-12-03T08:00:00Z");
const at = (iso: string) => new Date(iso);
const state = async (market: string, dataset: string) =>
  (await dataOverview(NOW)).datasets.find((d) => d.market === market && d.dataset === dataset)!;

beforeEach(() => {
  resetProviderHealthForTests();
  temp.useSettings({ MARKET_DATA_SOURCES: "eastmoney,yahoo,sample" });
});

describe("dataOverview", () => {
  it("ok when the first source answers, degraded when a later one does, unavailable when none does", async () => {
    recordProviderCall("eastmoney", "cn", "daily_bars", { ok: true, reason: null }, at("2026-12-03T07:00:00Z"));
    expect(await state("cn", "daily_bars")).toMatchObject({
      status: "ok",
      // Yahoo says it serves no A-shares: it is not on the A-share route.
      route: ["eastmoney", "sample"],
      current_source: "eastmoney",
      last_success_at: "2026-12-03T07:00:00.000Z",
    });
    recordProviderCall(
      "eastmoney",
      "hk",
      "quote",
      { ok: false, reason: "timeout after 8000 ms" },
      at("2026-12-03T07:01:00Z"),
    );
    recordProviderCall("yahoo", "hk", "quote", { ok: true, reason: null }, at("2026-12-03T07:01:01Z"));
    expect(await state("hk", "quote")).toMatchObject({
      status: "degraded",
      current_source: "yahoo",
      diagnostics: ["eastmoney: timeout after 8000 ms"],
    });
    for (const provider of ["eastmoney", "yahoo", "sample"])
      recordProviderCall(provider, "us", "quote", { ok: false, reason: `error: ${provider} down` });
    const us = await state("us", "quote");
    expect(us.status).toBe("unavailable");
    expect(us.diagnostics).toHaveLength(3);
    expect((await dataOverview(NOW)).warning_codes).toContain("dataset_unavailable");
  });

  it("never asked: unknown, or stale over stored bars older than 7 days; no listed source: unconfigured", async () => {
    expect((await state("us", "daily_bars")).status).toBe("unknown");
    await db().dailyBar.create({
      data: {
        symbolKey: "us:AAPL",
        tradeDate: "2026-11-02",
        open: 1,
        high: 1,
        low: 1,
        close: 1,
        volume: 1,
        source: "yahoo",
        fetchedAt: at("2026-11-02T21:00:00Z"),
      },
    });
    expect(await state("us", "daily_bars")).toMatchObject({
      status: "stale",
      current_source: "yahoo",
      stored: { symbols: 1, last_fetched_at: "2026-11-02T21:00:00.000Z" },
    });
    temp.useSettings({ MARKET_DATA_SOURCES: "eastmoney" });
    const overview = await dataOverview(NOW);
    expect(overview.datasets.find((d) => d.dataset === "fx")).toMatchObject({ status: "unconfigured", route: [] });
    expect(overview.warning_codes).toContain("no_fx_source");
  });

  it("warnings name local-only chains, the sample data and a configured name no provider implements", async () => {
    temp.useSettings({ MARKET_DATA_SOURCES: "csv,sample,bogus" });
    const overview = await dataOverview(NOW);
    expect(overview.warning_codes).toEqual(
      expect.arrayContaining(["no_network_source", "sample_data_in_chain", "unknown_source:bogus"]),
    );
    expect(overview.providers.find((p) => p.provider === "csv")).toMatchObject({ enabled: true, priority: 1 });
    expect(overview.providers.find((p) => p.provider === "eastmoney")).toMatchObject({
      enabled: false,
      status: "unconfigured",
    });
  });
});

describe("dataSourcesStatus", () => {
  it("a provider failing 3 times in a row for a market is failing there, with its masked reason; others ok", async () => {
    for (let i = 0; i < 3; i++)
      recordProviderCall("eastmoney", "us", "quote", {
        ok: false,
        reason: "error: GET https://x.example/?token=abcdef12345 failed",
      });
    recordProviderCall("eastmoney", "cn", "quote", { ok: true, reason: null });
    const status = dataSourcesStatus();
    const eastmoney = status.market_data.find((s) => s.source_id === "eastmoney")!;
    expect(eastmoney).toMatchObject({ status: "active", priority: 1, kind: "market_data" });
    expect(eastmoney.circuit.find((c) => c.market === "us")).toMatchObject({
      state: "failing",
      consecutive_failures: 3,
    });
    expect(eastmoney.circuit.find((c) => c.market === "cn")).toMatchObject({ state: "ok" });
    expect(JSON.stringify(eastmoney)).not.toContain("abcdef12345");
    expect(eastmoney.detail).toMatch(/^Failing for us/);
    expect(status.market_data.find((s) => s.source_id === "csv")).toMatchObject({ status: "not_configured" });
    expect(status.summary).toMatchObject({ market_data_active: 3, market_data_total: 5, search_total: 4 });
    expect(status.search.every((s) => s.requires_credentials && s.status === "not_configured")).toBe(true);
  });
});
