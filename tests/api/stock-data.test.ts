import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZStockHistoryResponse, ZStockQuoteResponse } from "@/lib/stocks/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";

// GET /stocks/{code}/quote and /history (CONTRACT §14.2) on the sample data: the fields a client reads, under both
// the contract's and the reference's names, and figures that agree with each other and with the bars.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample" });
});
afterAll(() => server?.stop());

const get = async (path: string) => {
  const res = await fetch(`${server.baseUrl}/api/v1/stocks/${path}`);
  return { status: res.status, body: await res.json() };
};

describe("GET /api/v1/stocks/{code}/quote and /history", () => {
  it("the quote: its change is against the previous session's close, and it agrees with the history's bars", async () => {
    const quote = await get("600519/quote");
    expect(quote.status).toBe(200);
    const q = ZStockQuoteResponse.parse(quote.body);
    expect(q).toMatchObject({ code: "600519", stock_code: "600519", market: "cn", asset_type: "stock" });
    expect(q).toMatchObject({ source: "sample", is_sample_data: true, current_price: q.price });
    expect(q.name).toBe(q.stock_name);
    expect(q.change_percent).toBe(q.change_pct);
    expect(q.update_time).toBe(q.time);
    expect(q.change).toBeCloseTo(q.price - q.prev_close!, 6);
    // The provider rounds its change to 0.01 %.
    expect(q.change_pct!).toBeCloseTo((q.price / q.prev_close! - 1) * 100, 2);
    expect(q.low!).toBeLessThanOrEqual(q.price);
    expect(q.high!).toBeGreaterThanOrEqual(q.price);
    if (q.time !== null) expect(q.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);

    const history = await get("600519/history?days=5");
    expect(history.status).toBe(200);
    const h = ZStockHistoryResponse.parse(history.body);
    expect(h).toMatchObject({ code: "600519", stock_code: "600519", period: "daily", is_sample_data: true });
    expect(h.data).toHaveLength(5);
    expect(h.data.map((b) => b.date)).toEqual([...h.data.map((b) => b.date)].sort());
    expect(h.data[0]!.change_percent).toBeNull();
    for (let i = 1; i < h.data.length; i++)
      expect(h.data[i]!.change_percent!).toBeCloseTo((h.data[i]!.close / h.data[i - 1]!.close - 1) * 100, 6);
    // The quote's previous close is the last final bar before the quote's session.
    const before = h.data.filter((b) => b.date < q.date).at(-1)!;
    expect(q.prev_close).toBe(before.close);
  });

  it("an index and a US stock resolve like an analysis; the default window is 30 bars", async () => {
    const index = ZStockQuoteResponse.parse((await get("sh000300/quote")).body);
    expect(index).toMatchObject({ asset_type: "index", market: "cn" });
    const apple = ZStockHistoryResponse.parse((await get("AAPL/history")).body);
    expect(apple).toMatchObject({ code: "AAPL", market: "us" });
    expect(apple.data).toHaveLength(30);
  });

  it("a code the local data lacks is 404 with why; a bad code 400; days out of 1..1000 is 422", async () => {
    const missing = await get("601888/quote");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: "not_found", reason_code: "not_in_local_data" });
    expect((await get("601888/history")).status).toBe(404);
    expect((await get("not-a-code!/quote")).status).toBe(400);
    expect((await get("600519/history?days=0")).status).toBe(422);
    expect((await get("600519/history?days=1001")).status).toBe(422);
  });
});
