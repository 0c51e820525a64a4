import { describe, expect, it } from "vitest";
import {
  addTradingDays,
  defaultExpiry,
  defaultHorizon,
  derivePlanQuality,
  expectedDirection,
  isDirectional,
  isTerminal,
  oppositeActions,
  pricePlanProblem,
} from "./lifecycle";

describe("docs/api.md §4 lifecycle defaults", () => {
  it("horizon: intraday for alert or an in-session phase, else 3d", () => {
    expect(defaultHorizon("alert", null)).toBe("intraday");
    expect(defaultHorizon("alert", "postmarket")).toBe("intraday");
    for (const phase of ["premarket", "intraday", "lunch_break", "closing_auction"] as const)
      expect(defaultHorizon("buy", phase)).toBe("intraday");
    for (const phase of ["postmarket", "non_trading", "unknown", null, undefined] as const)
      expect(defaultHorizon("buy", phase)).toBe("3d");
    expect(defaultHorizon("sell", undefined)).toBe("3d");
  });

  it("Nd expires at the close of the N-th trading session (a session in progress counts as the first)", () => {
    // Monday 2026-11-23 10:00 Shanghai: the last closed session is Friday; 3d = Mon, Tue, Wed → Wed 15:00 +08:00.
    const mondayMorning = new Date("2026-11-23T02:00:00Z");
    expect(defaultExpiry("3d", "cn", mondayMorning)?.toISOString()).toBe("2026-11-25T07:00:00.000Z");
    expect(defaultExpiry("1d", "cn", mondayMorning)?.toISOString()).toBe("2026-11-23T07:00:00.000Z");
    expect(defaultExpiry("intraday", "cn", mondayMorning)?.toISOString()).toBe("2026-11-23T07:00:00.000Z");
    // After Monday's close the first session is Tuesday.
    const mondayEvening = new Date("2026-11-23T08:30:00Z");
    expect(defaultExpiry("1d", "cn", mondayEvening)?.toISOString()).toBe("2026-11-24T07:00:00.000Z");
    expect(defaultExpiry("intraday", "cn", mondayEvening)?.toISOString()).toBe("2026-11-24T07:00:00.000Z");
    // Saturday: weekends are skipped; 3d = Mon 30, Tue 1, Wed 2 December.
    expect(defaultExpiry("3d", "cn", new Date("2026-11-28T04:00:00Z"))?.toISOString()).toBe("2026-12-02T07:00:00.000Z");
    // 10d spans two weekends: from Monday morning, sessions 23..27 and 30..4 December.
    expect(defaultExpiry("10d", "cn", mondayMorning)?.toISOString()).toBe("2026-12-04T07:00:00.000Z");
  });

  it("expiry uses the market's own session close and time zone", () => {
    // Monday 10:00 New York (EST): the 5th session is the next Monday 16:00 -05:00, because NYSE closes on
    // Thanksgiving; Hong Kong closes 16:10 +08:00.
    expect(defaultExpiry("5d", "us", new Date("2026-11-23T15:00:00Z"))?.toISOString()).toBe("2026-11-30T21:00:00.000Z");
    expect(defaultExpiry("5d", "us", new Date("2026-11-09T15:00:00Z"))?.toISOString()).toBe("2026-11-13T21:00:00.000Z");
    expect(defaultExpiry("1d", "hk", new Date("2026-11-23T02:00:00Z"))?.toISOString()).toBe("2026-11-23T08:10:00.000Z");
  });

  it("swing and long never expire by default", () => {
    expect(defaultExpiry("swing", "cn", new Date())).toBeNull();
    expect(defaultExpiry("long", "us", new Date())).toBeNull();
  });

  it("trading-day arithmetic skips weekends", () => {
    expect(addTradingDays("cn", "2026-11-20", 1)).toBe("2026-11-23");
    expect(addTradingDays("cn", "2026-11-20", 5)).toBe("2026-11-27");
    expect(addTradingDays("cn", "2026-11-20", 0)).toBe("2026-11-20");
    // NYSE is closed on Thanksgiving (2026-11-26), so the US count skips it.
    expect(addTradingDays("us", "2026-11-20", 5)).toBe("2026-11-30");
  });

  it("3.2: expired, invalidated, closed and archived are terminal; active is not", () => {
    expect(["expired", "invalidated", "closed", "archived"].every((s) => isTerminal(s as never))).toBe(true);
    expect(isTerminal("active")).toBe(false);
  });
});

describe("docs/api.md §4 directions", () => {
  it("opposite sides are {buy, add} and {reduce, sell, avoid}", () => {
    expect(oppositeActions("buy")).toEqual(["reduce", "sell", "avoid"]);
    expect(oppositeActions("add")).toEqual(["reduce", "sell", "avoid"]);
    expect(oppositeActions("sell")).toEqual(["buy", "add"]);
    expect(oppositeActions("hold")).toEqual([]);
    expect(oppositeActions("watch")).toEqual([]);
  });

  it("expected directions; watch and alert are not directional", () => {
    expect(["buy", "add", "hold", "reduce", "sell", "avoid"].map((a) => expectedDirection(a as never))).toEqual([
      "up",
      "up",
      "not_down",
      "not_up",
      "not_up",
      "not_up",
    ]);
    expect(isDirectional("watch")).toBe(false);
    expect(isDirectional("alert")).toBe(false);
    expect(isDirectional(null)).toBe(false);
    expect(isDirectional("hold")).toBe(true);
  });
});

describe("price-plan sanity", () => {
  it("a buy's stop is below the entry and its target above", () => {
    expect(pricePlanProblem("buy", { entry_low: 10, entry_high: 11, stop_loss: 9, target_price: 13 })).toBeNull();
    expect(pricePlanProblem("buy", { entry_low: 10, entry_high: 11, stop_loss: 10.5, target_price: 13 })).toMatch(
      /stop_loss must be below/,
    );
    expect(pricePlanProblem("add", { entry_low: 10, entry_high: 11, stop_loss: 9, target_price: 10.8 })).toMatch(
      /target_price must be above/,
    );
    expect(pricePlanProblem("buy", { stop_loss: 12, target_price: 11 })).toMatch(/below target_price/);
  });

  it("mirrored for reduce, sell and avoid", () => {
    expect(pricePlanProblem("sell", { entry_low: 10, entry_high: 11, stop_loss: 12, target_price: 9 })).toBeNull();
    expect(pricePlanProblem("sell", { entry_low: 10, entry_high: 11, stop_loss: 10.5 })).toMatch(
      /stop_loss must be above/,
    );
    expect(pricePlanProblem("reduce", { entry_high: 11, target_price: 11.5 })).toMatch(/target_price must be below/);
  });

  it("entry_low may not exceed entry_high, for any action", () => {
    expect(pricePlanProblem("watch", { entry_low: 12, entry_high: 11 })).toMatch(/entry_low/);
    expect(pricePlanProblem("watch", { stop_loss: 20, target_price: 5 })).toBeNull();
  });

  it("plan quality: complete, partial, minimal", () => {
    expect(derivePlanQuality({ entry_low: 1, stop_loss: 0.9, target_price: 1.2 })).toBe("complete");
    expect(derivePlanQuality({ entry_high: 1, stop_loss: 0.9 })).toBe("partial");
    expect(derivePlanQuality({})).toBe("minimal");
  });
});
