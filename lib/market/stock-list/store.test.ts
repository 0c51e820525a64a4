import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { db, disconnectDb } from "@/lib/db/client";
import { activeNameSources, BUNDLED_NAMES, isRejection, resolveToken } from "@/lib/market/symbols";
import { bodyResponse, fixtureText, replay } from "@/tests/kits/market-replay";
import { parseClistPage, type StockListRow } from "./eastmoney-clist";
import { ensureStockListNameSource, loadStockListNameSource, resetStockListNameSource } from "./name-source";
import { REFRESH_STATE_KEY, refreshStockList } from "./refresh";
import { countListings, storeListings } from "./store";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";

// A temporary SQLite file with the repository's migrations applied in order (as lib/market/bars does).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-stocklist-"));
const file = path.join(dir, "test.db");
let databaseUrl = "";

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl(file);
  setEnvironmentForTests({ ENV_FILE: path.join(dir, "missing.env"), DATABASE_URL: databaseUrl });
});

afterAll(async () => {
  await disconnectDb();
  setEnvironmentForTests(process.env);
  setClock(null);
  resetStockListNameSource();
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await db().stockListing.deleteMany();
  await db().appState.deleteMany();
  resetStockListNameSource();
});

afterEach(() => vi.unstubAllGlobals());

const sh20 = () => parseClistPage(fixtureText("eastmoney/clist-sh-a-board-top20.jsonp.txt"), "cn").rows;
const top5 = () => parseClistPage(fixtureText("eastmoney/clist-a-share-gainers-top5.json"), "cn").rows;

function codeOf(token: string): string {
  const result = resolveToken(token);
  if (isRejection(result)) throw new Error(`${token}: ${result.reason}`);
  return result.code;
}

describe("stock_listing store", () => {
  it("upserts recorded rows; storing the same rows again changes nothing (idempotent)", async () => {
    setClock(() => new Date("2026-11-20T08:00:00Z"));
    const first = await storeListings("cn", sh20(), "eastmoney");
    expect(first).toEqual({ market: "cn", written: 20, stored: 20 });
    const before = await db().stockListing.findMany({ orderBy: { code: "asc" } });
    const again = await storeListings("cn", sh20(), "eastmoney");
    expect(again).toEqual({ market: "cn", written: 20, stored: 20 });
    const after = await db().stockListing.findMany({ orderBy: { code: "asc" } });
    expect(after).toEqual(before);
    expect(after.find((r) => r.code === "600107")).toMatchObject({
      market: "cn",
      code: "600107",
      nameZh: "美尔雅",
      nameEn: null,
      kind: "stock",
      exchange: "SH",
      source: "eastmoney",
      updatedAt: new Date("2026-11-20T08:00:00Z"),
    });
  });

  it("rows not returned by a later refresh are kept; returned ones are renamed and re-stamped", async () => {
    setClock(() => new Date("2026-11-20T08:00:00Z"));
    await storeListings("cn", sh20(), "eastmoney");
    setClock(() => new Date("2026-11-21T08:00:00Z"));
    const renamed: StockListRow = { ...sh20()[0]!, nameZh: "*ST美尔" };
    const result = await storeListings("cn", [renamed, ...top5()], "eastmoney");
    expect(result).toEqual({ market: "cn", written: 6, stored: 25 });
    const row = await db().stockListing.findUnique({ where: { market_code: { market: "cn", code: "600107" } } });
    expect(row).toMatchObject({ nameZh: "*ST美尔", updatedAt: new Date("2026-11-21T08:00:00Z") });
    const kept = await db().stockListing.findUnique({ where: { market_code: { market: "cn", code: "600266" } } });
    expect(kept).toMatchObject({ nameZh: "城建发展", updatedAt: new Date("2026-11-20T08:00:00Z") });
    expect(await countListings()).toEqual({ cn: 25, hk: 0, us: 0 });
  });

  it("a missing English name or exchange does not erase a stored one; rows of another market are refused", async () => {
    const aapl: StockListRow = {
      market: "us",
      code: "AAPL",
      nameZh: "苹果",
      nameEn: "Apple Inc.",
      exchange: "NASDAQ",
      kind: "stock",
    };
    await storeListings("us", [aapl], "eastmoney");
    await storeListings("us", [{ ...aapl, nameEn: null, exchange: null }], "eastmoney");
    expect(await db().stockListing.findFirst({ where: { code: "AAPL" } })).toMatchObject({
      nameEn: "Apple Inc.",
      exchange: "NASDAQ",
    });
    await expect(storeListings("hk", [aapl], "eastmoney")).rejects.toThrow(/belongs to another market/);
  });

  it("chunks large lists (1 200 rows → 3 statements in one transaction)", async () => {
    const rows: StockListRow[] = Array.from({ length: 1200 }, (_, i) => ({
      market: "hk",
      code: String(i + 1).padStart(5, "0"),
      nameZh: `测试${i}`,
      nameEn: null,
      exchange: "HK",
      kind: "stock",
    }));
    expect(await storeListings("hk", rows, "eastmoney")).toEqual({ market: "hk", written: 1200, stored: 1200 });
  });
});

describe("database-backed name source", () => {
  it("a name only the database knows resolves once loaded; the bundled list still works", async () => {
    expect(isRejection(resolveToken("美尔雅"))).toBe(true); // not in the bundled list
    await storeListings("cn", sh20(), "eastmoney");
    const loaded = await loadStockListNameSource();
    expect(loaded.count).toBe(20);
    expect(loaded.byMarket).toEqual({ cn: 20, hk: 0, us: 0 });
    expect(activeNameSources()).toHaveLength(2);
    expect(activeNameSources()[1]).toBe(BUNDLED_NAMES);
    expect(resolveToken("美尔雅")).toMatchObject({
      kind: "stock",
      market: "cn",
      code: "600107",
      exchange: "SH",
      name: "美尔雅",
    });
    expect(codeOf("城建发展")).toBe("600266");
    // Not in the table: the bundled list answers.
    expect(codeOf("腾讯控股")).toBe("00700");
    expect(codeOf("贵州茅台")).toBe("600519");
    expect(codeOf("沪深300")).toBe("000300.SH");
  });

  it("the database name is preferred, the bundled English name and aliases of the same code are kept", async () => {
    await storeListings(
      "cn",
      [{ market: "cn", code: "600519", nameZh: "贵州茅台酒", nameEn: null, exchange: "SH", kind: "stock" }],
      "eastmoney",
    );
    const loaded = await loadStockListNameSource();
    const entry = loaded.source!.findByCode("cn", "600519");
    expect(entry).toMatchObject({ nameZh: "贵州茅台酒", nameEn: "Kweichow Moutai" });
    expect(entry!.aliases).toEqual(expect.arrayContaining(["茅台", "Moutai", "贵州茅台"]));
    expect(resolveToken("600519")).toMatchObject({ code: "600519", name: "贵州茅台酒" });
    expect(codeOf("贵州茅台酒")).toBe("600519");
    expect(codeOf("Moutai")).toBe("600519");
  });

  it("an empty table installs nothing; ensureStockListNameSource memoises and survives a missing table", async () => {
    expect(await loadStockListNameSource()).toMatchObject({ count: 0, source: null });
    expect(activeNameSources()).toEqual([BUNDLED_NAMES]);
    await storeListings("cn", top5(), "eastmoney");
    const first = await ensureStockListNameSource();
    expect(first?.count).toBe(5);
    await storeListings("cn", sh20(), "eastmoney");
    expect(await ensureStockListNameSource()).toBe(first); // memoised: one load per process
    resetStockListNameSource();
    await db().$executeRawUnsafe('ALTER TABLE "stock_listing" RENAME TO "stock_listing_away"');
    try {
      expect(await ensureStockListNameSource()).toBeNull();
      expect(activeNameSources()).toEqual([BUNDLED_NAMES]);
    } finally {
      await db().$executeRawUnsafe('ALTER TABLE "stock_listing_away" RENAME TO "stock_listing"');
    }
  });
});

describe("refreshStockList: fetch → parse → store against recorded bodies (fetch replayed)", () => {
  const clist = (url: URL) => url.pathname === "/api/qt/clist/get";
  const market = (fs: string) => (url: URL) => clist(url) && url.searchParams.get("fs")!.startsWith(fs);

  it("stores each market in full, reports counts, and records the refresh in app_state", async () => {
    setClock(() => new Date("2026-11-20T08:00:00Z"));
    const body = fixtureText("eastmoney/clist-sh-a-board-top20.jsonp.txt").replace('"total":2384', '"total":20');
    replay([
      [market("m:1 t:2"), bodyResponse(body)],
      [
        market("m:128"),
        bodyResponse('{"rc":0,"data":{"total":1,"diff":[{"f12":"00700","f13":116,"f14":"腾讯控股"}]}}'),
      ],
      [market("m:105"), bodyResponse('{"rc":0,"data":{"total":1,"diff":[{"f12":"AAPL","f13":105,"f14":"苹果"}]}}')],
    ]);
    const summary = await refreshStockList({ retries: 0 });
    expect(summary).toMatchObject({ ok: true, offline: false, source: "eastmoney", at: "2026-11-20T08:00:00.000Z" });
    expect(summary.markets).toEqual([
      { market: "cn", listed: 20, written: 20, stored: 20, complete: true, error: null, offline: false },
      { market: "hk", listed: 1, written: 1, stored: 1, complete: true, error: null, offline: false },
      { market: "us", listed: 1, written: 1, stored: 1, complete: true, error: null, offline: false },
    ]);
    const state = await db().appState.findUnique({ where: { key: REFRESH_STATE_KEY } });
    expect(JSON.parse(state!.value)).toMatchObject({
      ok: true,
      markets: [{ market: "cn", written: 20 }, { market: "hk" }, { market: "us" }],
    });
  });

  it("offline: every market fails on the network, nothing is written, stored rows stay", async () => {
    await storeListings("cn", top5(), "eastmoney");
    replay([]); // every fetch fails like a refused connection
    const summary = await refreshStockList({ retries: 1, backoffMs: 1 });
    expect(summary.ok).toBe(false);
    expect(summary.offline).toBe(true);
    expect(summary.markets.map((m) => [m.market, m.written, m.stored, m.offline])).toEqual([
      ["cn", 0, 5, true],
      ["hk", 0, 0, true],
      ["us", 0, 0, true],
    ]);
    expect(summary.markets[0]!.error).toMatch(/^page 1: network error: fetch failed/);
    expect(await db().appState.findUnique({ where: { key: REFRESH_STATE_KEY } })).toBeNull();
  });
});
