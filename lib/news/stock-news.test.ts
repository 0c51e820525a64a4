import { afterEach, describe, expect, it, vi } from "vitest";
import { fixtureText } from "@/tests/kits/market-replay";
import { createTavilyProvider } from "./providers/tavily";
import { searchStockNews, stockNewsQuery } from "./stock-news";
import { json, stubFetch } from "@/tests/kits/news-fetch-stub";

afterEach(() => vi.unstubAllGlobals());

describe("stock news queries", () => {
  it("A-shares: Chinese, name + code, whatever the report language", () => {
    expect(stockNewsQuery({ code: "600519", name: "贵州茅台", market: "cn" })).toEqual({
      query: "贵州茅台 600519 最新消息",
      language: "zh",
    });
    expect(stockNewsQuery({ code: "600519", name: "贵州茅台", market: "cn" }, "en").query).toBe(
      "贵州茅台 600519 最新消息",
    );
    expect(stockNewsQuery({ code: "000001", market: "cn" }).query).toBe("000001 股票 最新消息");
    expect(stockNewsQuery({ code: "000300", name: "沪深300", market: "cn", kind: "index" }).query).toBe(
      "沪深300 000300 最新行情 消息",
    );
  });

  it("US: English; a Chinese name is left out rather than narrowing the search", () => {
    expect(stockNewsQuery({ code: "aapl", name: "Apple", market: "us" })).toEqual({
      query: "Apple AAPL stock news",
      language: "en",
    });
    expect(stockNewsQuery({ code: "AAPL", name: "苹果", market: "us" }, "zh").query).toBe("AAPL stock news");
    expect(stockNewsQuery({ code: "BRK.B", market: "us" }).query).toBe("BRK.B stock news");
  });

  it("Hong Kong: Chinese by default; English with an English name when the report is English", () => {
    expect(stockNewsQuery({ code: "00700", name: "腾讯控股", market: "hk" })).toEqual({
      query: "腾讯控股 00700 港股 最新消息",
      language: "zh",
    });
    expect(stockNewsQuery({ code: "00700", name: "Tencent", market: "hk" }, "en")).toEqual({
      query: "Tencent 0700.HK stock news",
      language: "en",
    });
    expect(stockNewsQuery({ code: "00700", name: "腾讯控股", market: "hk" }, "en").language).toBe("zh");
  });

  it("searchStockNews sends the query and its locale to the providers", async () => {
    const { calls } = stubFetch(() => json(fixtureText("tavily/search-basic-current-mayor-nyc.json")));
    const result = await searchStockNews(
      { code: "00700", name: "Tencent", market: "hk" },
      { language: "en", limit: 1, days: 2 },
      { providers: [createTavilyProvider({ keys: ["tvly-test-key-1"] })] },
    );
    expect(calls[0]?.body).toMatchObject({ query: "Tencent 0700.HK stock news", days: 2, max_results: 1 });
    expect(result).toMatchObject({ query: "Tencent 0700.HK stock news", provider: "tavily", disclosure: null });
    expect(result.items).toHaveLength(1);
  });
});
