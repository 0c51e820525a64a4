import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZHistoryListResponse, ZStockBarResponse } from "@/lib/history/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import { analyzeRecord } from "../setup/history-records";

// The history lists keep their answers in memory. Next bundles the History page and the route handlers
// with separate copies of that cache's code; on a fresh server (the name list not yet loaded by either copy) an answer
// the page kept once reached the API as the page's own object and was sent as {"value": …}. Every answer must be the
// list, whichever of them asked first, before and after a new record.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample" });
});
afterAll(() => server?.stop());

async function expectLists(): Promise<void> {
  for (const query of ["page=1&limit=20", "limit=20", "page=1&limit=20&stock_code=600519"]) {
    const res = await fetch(`${server.baseUrl}/api/v1/history?${query}`);
    expect(res.status, query).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort(), query).toEqual(["items", "limit", "page", "total"]);
    ZHistoryListResponse.parse(body);
  }
  const stocks = (await (await fetch(`${server.baseUrl}/api/v1/history/stocks?limit=200`)).json()) as Record<
    string,
    unknown
  >;
  expect(Object.keys(stocks).sort()).toEqual(["items", "total"]);
  ZStockBarResponse.parse(stocks);
}

describe("the History page and the API share no kept answer", () => {
  it("after the page has listed, the API answers the list itself; again after a new record", async () => {
    for (const target of ["/history", "/history?page=1", "/history?stock_code=600519"]) {
      expect((await fetch(`${server.baseUrl}${target}`)).status, target).toBe(200);
      await expectLists();
    }
    await analyzeRecord(server.baseUrl, { stock_code: "600519" });
    expect((await fetch(`${server.baseUrl}/history`)).status).toBe(200);
    await expectLists();
    const listed = ZHistoryListResponse.parse(
      await (await fetch(`${server.baseUrl}/api/v1/history?page=1&limit=20`)).json(),
    );
    expect(listed.total).toBe(1);
  });
});
