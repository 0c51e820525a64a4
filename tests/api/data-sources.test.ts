import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZDataCapabilities, ZDataOverview, ZDataSourcesStatus } from "@/lib/data-sources/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";

// CONTRACT §14.2: the data-source status, the data overview and the capability tables, over HTTP against the built
// server, with the fields the reference's newer client reads.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample,bogus" });
});
afterAll(() => server?.stop());

const get = async (path: string) => (await fetch(`${server.baseUrl}/api/v1/${path}`)).json();

function expectKeys(value: Record<string, unknown>, keys: string[]) {
  for (const key of keys) expect(value, key).toHaveProperty(key);
}

describe("data sources over HTTP", () => {
  it("GET /system/data-sources/status: the listed provider is active and its market ok after a call", async () => {
    expect((await fetch(`${server.baseUrl}/api/v1/stocks/600519/quote`)).status).toBe(200);
    const body = await get("system/data-sources/status");
    expectKeys(body, ["market_data", "search", "summary"]);
    const status = ZDataSourcesStatus.parse(body);
    for (const item of [...status.market_data, ...status.search])
      expectKeys(item, [
        "source_id",
        "name",
        "kind",
        "status",
        "requires_credentials",
        "markets",
        "config_keys",
        "detail",
        "circuit",
      ]);
    const sample = status.market_data.find((s) => s.source_id === "sample")!;
    expect(sample).toMatchObject({ status: "active", priority: 1, markets: ["cn", "hk", "us"] });
    expect(sample.circuit.find((c) => c.market === "cn")).toMatchObject({ state: "ok" });
    expect(status.market_data.find((s) => s.source_id === "eastmoney")).toMatchObject({ status: "not_configured" });
    expect(status.market_data.find((s) => s.source_id === "bogus")!.detail).toMatch(/no such provider/);
    expect(status.summary).toMatchObject({ market_data_active: 2, market_data_total: 6, search_active: 0 });
  });

  it("GET /data/overview: the A-share quote is ok from the sample, and the warnings say what a trader should know", async () => {
    const overview = ZDataOverview.parse(await get("data/overview"));
    expect(overview.datasets.find((d) => d.market === "cn" && d.dataset === "quote")).toMatchObject({
      status: "ok",
      current_source: "sample",
      route: ["sample"],
    });
    expect(overview.warning_codes).toEqual(
      expect.arrayContaining(["no_network_source", "sample_data_in_chain", "unknown_source:bogus"]),
    );
    expect(overview.routes).toContainEqual({ scenario: "cn.quote", providers: ["sample"] });
  });

  it("GET /data/capabilities: read off the providers (Yahoo serves no A-shares and has FX; CSV is local)", async () => {
    const { providers } = ZDataCapabilities.parse(await get("data/capabilities"));
    expect(providers.map((p) => p.provider)).toEqual(["eastmoney", "tencent", "yahoo", "sample", "csv"]);
    expect(providers.find((p) => p.provider === "yahoo")).toMatchObject({
      markets: ["hk", "us"],
      datasets: ["daily_bars", "quote", "fx"],
      kind: "network",
      requires_credentials: false,
    });
    expect(providers.find((p) => p.provider === "csv")).toMatchObject({ kind: "local", realtime: false });
  });
});
