import { afterEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { bodyResponse, fixtureBytes, fixtureText, replay, signal } from "@/tests/kits/market-replay";
import { fetchEastmoneyList, parseEastmoneyList } from "./snapshot-eastmoney";
import { screeningUniverse } from "./universe";

// The market list a run screens: Eastmoney's recorded list replies parsed, the list read through a stubbed fetch and
// kept, and the last good list used (with its age) when the provider cannot be read.

withTempDatabase("screening-snapshot", {
  LOG_LEVEL: "silent",
  MARKET_DATA_SOURCES: "eastmoney",
  MARKET_DATA_TIMEOUT_MS: "2000",
});

afterEach(() => {
  vi.unstubAllGlobals();
  setClock(null);
});

const LIST_PAGE = "eastmoney/clist-sh-a-board-top20.jsonp.txt";

describe("Eastmoney's list reply", () => {
  it("a JSONP page of 29 fields: each row's code, name and figures as recorded", () => {
    const page = parseEastmoneyList(fixtureText(LIST_PAGE), "cn");
    expect(page.total).toBe(2384);
    expect(page.rows).toHaveLength(20);
    expect(page.rows[0]).toEqual({
      code: "600107",
      name: "美尔雅",
      price: 3.69,
      change_pct: 10.15,
      amount: 32711449,
      turnover_rate: 2.49,
      volume_ratio: 0.48,
      market_cap: 1328400000,
    });
  });

  it("a JSON page of four fields: the figures it lacks are null", () => {
    const page = parseEastmoneyList(fixtureText("eastmoney/clist-a-share-gainers-top5.json"), "cn");
    expect(page.total).toBe(5915);
    expect(page.rows.map((r) => r.code)).toEqual(["688004", "301662", "300905", "688216", "920200"]);
    expect(page.rows[4]).toMatchObject({ name: "振宏股份", price: 30.78, change_pct: 14, amount: null });
    expect(parseEastmoneyList(fixtureText("eastmoney/kline-no-data-rc100.json"), "cn")).toEqual({ total: 0, rows: [] });
  });

  it("pages are asked sorted by turnover amount, 100 at a time, and a short page is the last", async () => {
    const { calls } = replay([[(u) => u.pathname === "/api/qt/clist/get", bodyResponse(fixtureBytes(LIST_PAGE))]]);
    const page = await fetchEastmoneyList("cn", 300, signal());
    expect(page.rows).toHaveLength(20);
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(calls[0]!.searchParams)).toMatchObject({
      pn: "1",
      pz: "100",
      po: "1",
      fid: "f6",
      np: "1",
    });
    expect(calls[0]!.searchParams.get("fs")).toContain("m:1 t:2");
  });
});

describe("the universe from the market list", () => {
  it("read now: the listed stocks are the universe and the list is kept; unreadable later: the kept list, with its age", async () => {
    await db().screeningSnapshot.deleteMany();
    const at = new Date("2026-12-01T08:00:00Z");
    setClock(() => at);
    replay([[(u) => u.pathname === "/api/qt/clist/get", bodyResponse(fixtureBytes(LIST_PAGE))]]);
    const fresh = await screeningUniverse("cn");
    expect(fresh.sources).toEqual(["eastmoney"]);
    expect(fresh.errors).toEqual([]);
    expect(fresh.list).toMatchObject({ total: 2384, fallback: false, ageHours: null });
    expect(fresh.members).toHaveLength(20);
    expect(fresh.members[0]).toMatchObject({ listed_from: "eastmoney", symbol: { code: "600107", market: "cn" } });
    expect(await db().screeningSnapshot.count()).toBe(1);

    setClock(() => new Date(at.getTime() + 5 * 3_600_000));
    replay([]);
    const later = await screeningUniverse("cn");
    expect(later.list).toMatchObject({ fallback: true, ageHours: 5, total: 2384 });
    expect(later.members.map((m) => m.symbol.code)).toEqual(fresh.members.map((m) => m.symbol.code));
    expect(later.errors).toEqual([expect.objectContaining({ source: "eastmoney", code: "market_list_unavailable" })]);
  });

  it("nothing kept and nothing read: no members, and the error says why", async () => {
    await db().screeningSnapshot.deleteMany();
    replay([]);
    const universe = await screeningUniverse("hk");
    expect(universe).toMatchObject({ members: [], sources: [], list: null });
    expect(universe.errors[0]!.message).toMatch(/^hk list: /);
  });
});
