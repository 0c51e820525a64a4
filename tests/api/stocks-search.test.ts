import { describe, expect, inject, it } from "vitest";
import { ZStockSearchResponse } from "@/lib/market/search-schemas";

const base = inject("baseUrl");
const search = (qs: string) => fetch(`${base}/api/v1/stocks/search?${qs}`);

describe("GET /api/v1/stocks/search", () => {
  it("ranks the exact name first and answers the wire shape", async () => {
    const res = await search(`q=${encodeURIComponent("茅台")}&limit=5`);
    expect(res.status).toBe(200);
    const body = ZStockSearchResponse.parse(await res.json());
    expect(body.items[0]).toMatchObject({
      kind: "stock",
      market: "cn",
      code: "600519",
      display_code: "600519",
      name: "贵州茅台",
    });
    expect(body.total).toBe(body.items.length);
  });

  it("finds indices by code and by English name, and US tickers by prefix", async () => {
    const index = ZStockSearchResponse.parse(await (await search("q=sh000300")).json());
    expect(index.items[0]).toMatchObject({ kind: "index", canonical_id: "000300.SH" });
    const apple = ZStockSearchResponse.parse(await (await search("q=AAP")).json());
    expect(apple.items.map((i) => i.code)).toContain("AAPL");
  });

  it("an empty query or a limit out of 1..50 is 422", async () => {
    expect((await search("q=")).status).toBe(422);
    expect((await search("q=a&limit=0")).status).toBe(422);
    expect((await search("q=a&limit=51")).status).toBe(422);
  });

  it("no match is an empty list, not an error", async () => {
    const body = ZStockSearchResponse.parse(await (await search(`q=${encodeURIComponent("完全不存在的公司")}`)).json());
    expect(body).toMatchObject({ total: 0, items: [] });
  });
});
