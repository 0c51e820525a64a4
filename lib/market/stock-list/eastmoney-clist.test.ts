import { afterEach, describe, expect, it, vi } from "vitest";
import { bodyResponse, fixtureText, replay } from "@/tests/kits/market-replay";
import { clistUrl, fetchMarketList, normaliseListCode, parseClistPage } from "./eastmoney-clist";

afterEach(() => vi.unstubAllGlobals());

const TOP5 = "eastmoney/clist-a-share-gainers-top5.json";
const SH20 = "eastmoney/clist-sh-a-board-top20.jsonp.txt";

/** The JSON inside a recorded body (JSONP unwrapped), to derive other pages from real rows. */
function recorded(file: string): { rc: number; data: { total: number; diff: Record<string, unknown>[] } } {
  const text = fixtureText(file).trim();
  return JSON.parse(text.startsWith("{") ? text : text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")));
}

describe("clist parsing against recorded bodies", () => {
  it("the A-share gainers body (f12 code, f14 name, no f13) → rows with the exchange from the code", () => {
    const page = parseClistPage(fixtureText(TOP5), "cn");
    expect(page.total).toBe(5915);
    expect(page.received).toBe(5);
    expect(page.skipped).toEqual([]);
    expect(page.rows).toEqual([
      { market: "cn", code: "688004", nameZh: "博汇科技", nameEn: null, exchange: "SH", kind: "stock" },
      { market: "cn", code: "301662", nameZh: "宏工科技", nameEn: null, exchange: "SZ", kind: "stock" },
      { market: "cn", code: "300905", nameZh: "宝丽迪", nameEn: null, exchange: "SZ", kind: "stock" },
      { market: "cn", code: "688216", nameZh: "气派科技", nameEn: null, exchange: "SH", kind: "stock" },
      // 92xxxx is the Beijing exchange's new code range.
      { market: "cn", code: "920200", nameZh: "振宏股份", nameEn: null, exchange: "BJ", kind: "stock" },
    ]);
  });

  it("the 29-field JSONP SH board body → 20 rows, f13 = 1 (SH), the other fields ignored", () => {
    const page = parseClistPage(fixtureText(SH20), "cn");
    expect(page.total).toBe(2384);
    expect(page.rows).toHaveLength(20);
    expect(page.rows[0]).toEqual({
      market: "cn",
      code: "600107",
      nameZh: "美尔雅",
      nameEn: null,
      exchange: "SH",
      kind: "stock",
    });
    expect(page.rows[19]).toEqual({
      market: "cn",
      code: "600266",
      nameZh: "城建发展",
      nameEn: null,
      exchange: "SH",
      kind: "stock",
    });
    expect(page.rows.map((r) => r.code)).toEqual([
      "600107",
      "600280",
      "600192",
      "603558",
      "600265",
      "603079",
      "600889",
      "600768",
      "600157",
      "600216",
      "600696",
      "600187",
      "601933",
      "603716",
      "603389",
      "605188",
      "600227",
      "600811",
      "601588",
      "600266",
    ]);
    expect(new Set(page.rows.map((r) => r.exchange))).toEqual(new Set(["SH"]));
  });

  it("rc 100 / data null is an empty page, not an error; garbage and bad rc are errors", () => {
    expect(parseClistPage('{"rc":100,"data":null}', "cn")).toEqual({ total: 0, received: 0, rows: [], skipped: [] });
    expect(() => parseClistPage("<html>blocked</html>", "cn")).toThrow(/neither JSON nor JSONP/);
    expect(() => parseClistPage('{"rc":0,"data":{"total":"x","diff":[]}}', "cn")).toThrow(
      /eastmoney clist: data.total/,
    );
    expect(() => parseClistPage('{"rc":102,"data":null}', "cn")).toThrow(/rc 102/);
  });

  it("diff as an object keyed 0,1,… (no np=1) parses like an array", () => {
    const body = recorded(TOP5);
    const keyed = {
      ...body,
      data: { ...body.data, diff: Object.fromEntries(body.data.diff.map((row, i) => [String(i), row])) },
    };
    expect(parseClistPage(JSON.stringify(keyed), "cn").rows.map((r) => r.code)).toEqual([
      "688004",
      "301662",
      "300905",
      "688216",
      "920200",
    ]);
  });

  it("rows without a name or with a non-stock code are skipped with a reason; HK pads, US maps BRK_B → BRK.B", () => {
    const body = JSON.stringify({
      rc: 0,
      data: {
        total: 4,
        diff: [
          { f12: "510300", f13: 1, f14: "沪深300ETF" },
          { f12: "600000", f13: 1, f14: "-" },
          { f12: "600519", f13: 1, f14: "贵州茅台" },
          { f13: 1 },
        ],
      },
    });
    const page = parseClistPage(body, "cn");
    expect(page.rows.map((r) => r.code)).toEqual(["600519"]);
    expect(page.skipped).toEqual([
      { code: "510300", reason: "not an A-share stock code" },
      { code: "600000", reason: "no name" },
      { code: "?", reason: "row without f12 code" },
    ]);
    expect(normaliseListCode("hk", "700")).toEqual({ code: "00700", exchange: "HK" });
    expect(normaliseListCode("us", "BRK_B")).toEqual({ code: "BRK.B", exchange: null });
    const us = parseClistPage(
      JSON.stringify({
        rc: 0,
        data: {
          total: 2,
          diff: [
            { f12: "AAPL", f13: 105, f14: "苹果" },
            { f12: "BRK_B", f13: 106, f14: "Berkshire Hathaway Inc-B" },
          ],
        },
      }),
      "us",
    );
    expect(us.rows).toEqual([
      { market: "us", code: "AAPL", nameZh: "苹果", nameEn: null, exchange: "NASDAQ", kind: "stock" },
      {
        market: "us",
        code: "BRK.B",
        nameZh: "Berkshire Hathaway Inc-B",
        nameEn: "Berkshire Hathaway Inc-B",
        exchange: "NYSE",
        kind: "stock",
      },
    ]);
  });

  it("the request asks for f12,f13,f14 sorted by code with the market's fs filter", () => {
    const url = new URL(clistUrl("hk", 3, 100));
    expect(url.origin + url.pathname).toBe("https://push2.eastmoney.com/api/qt/clist/get");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      pn: "3",
      pz: "100",
      po: "0",
      np: "1",
      fltt: "2",
      fid: "f12",
      fields: "f12,f13,f14",
      fs: "m:128 t:3,m:128 t:4,m:128 t:1,m:128 t:2",
    });
  });
});

// Page 1 = the recorded SH board body (20 real rows), page 2 = the recorded gainers body (5 other real rows),
// with `total` set to 25 so the two recorded pages make one whole list.
function twoPages(): { page1: string; page2: string } {
  const a = recorded(SH20);
  const b = recorded(TOP5);
  return {
    page1: JSON.stringify({ ...a, data: { ...a.data, total: 25 } }),
    page2: JSON.stringify({ ...b, data: { ...b.data, total: 25 } }),
  };
}

const isClist = (pn: string) => (url: URL) => url.pathname === "/api/qt/clist/get" && url.searchParams.get("pn") === pn;

describe("clist paging (fetch replayed)", () => {
  it("reads pages until `total` rows are seen, then stops", async () => {
    const { page1, page2 } = twoPages();
    const { calls } = replay([
      [isClist("1"), bodyResponse(page1)],
      [isClist("2"), bodyResponse(page2)],
    ]);
    const result = await fetchMarketList("cn", { pageSize: 20, retries: 0 });
    expect(result).toMatchObject({ market: "cn", total: 25, pages: 2, complete: true, error: null, offline: false });
    expect(result.rows).toHaveLength(25);
    expect(result.rows.map((r) => r.code)).toContain("920200");
    expect(calls.map((u) => u.searchParams.get("pn"))).toEqual(["1", "2"]);
    expect(calls.every((u) => u.searchParams.get("pz") === "20")).toBe(true);
  });

  it("an empty page before `total` is reached ends the read as incomplete, keeping the rows read", async () => {
    const { page1 } = twoPages();
    replay([
      [isClist("1"), bodyResponse(page1)],
      [isClist("2"), bodyResponse('{"rc":0,"data":{"total":25,"diff":[]}}')],
    ]);
    const result = await fetchMarketList("cn", { pageSize: 20, retries: 0 });
    expect(result).toMatchObject({ complete: false, offline: false, pages: 2 });
    expect(result.rows).toHaveLength(20);
    expect(result.error).toMatch(/page 2 was empty after 20 of 25 rows/);
  });

  it("a network failure on a later page is retried, then reported (offline) with the rows read so far", async () => {
    const { page1 } = twoPages();
    const { calls } = replay([[isClist("1"), bodyResponse(page1)]]);
    const result = await fetchMarketList("cn", { pageSize: 20, retries: 2, backoffMs: 1 });
    expect(result).toMatchObject({ complete: false, offline: true, pages: 1 });
    expect(result.rows).toHaveLength(20);
    expect(result.error).toMatch(/^page 2: network error/);
    expect(calls.filter((u) => u.searchParams.get("pn") === "2")).toHaveLength(3);
  });

  it("a 4xx or a garbage body is not retried and is not 'offline'", async () => {
    const { calls } = replay([[isClist("1"), bodyResponse("not json at all", 200)]]);
    const result = await fetchMarketList("us", { retries: 2, backoffMs: 1 });
    expect(result).toMatchObject({ complete: false, offline: false, rows: [], pages: 0 });
    expect(result.error).toMatch(/page 1: .*neither JSON nor JSONP/);
    expect(calls).toHaveLength(1);
  });
});
