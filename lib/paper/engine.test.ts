import { describe, expect, it } from "vitest";
import {
  DEFAULT_FEES,
  DEFAULT_LOT,
  runSession,
  type PaperBar,
  type PaperCall,
  type PaperRules,
  type PaperState,
} from "./engine";
import { actionableSession, sessionsBetween } from "./sessions";

// The execution rules on hand-made bars, each expected figure worked out here from the rule's own words.

const cn: PaperRules = {
  market: "cn",
  sizing: { kind: "equal_weight", max_positions: 2 },
  fees: DEFAULT_FEES.cn,
  lotSize: DEFAULT_LOT.cn,
  tPlusOne: true,
};
const us: PaperRules = {
  market: "us",
  sizing: { kind: "fixed_fraction", fraction: 0.5 },
  fees: DEFAULT_FEES.us,
  lotSize: DEFAULT_LOT.us,
  tPlusOne: false,
};

const start = (cash: number): PaperState => ({ cash, positions: [], waiting: [] });
const bar = (date: string, open: number, high: number, low: number, close: number): PaperBar => ({
  date,
  open,
  high,
  low,
  close,
});
const bars = (entries: Record<string, PaperBar>) => new Map(Object.entries(entries));
let nextId = 1;
function call(code: string, action: PaperCall["action"], levels: { stop?: number; target?: number } = {}): PaperCall {
  const id = nextId++;
  return {
    signalId: id,
    reportId: 100 + id,
    code,
    action,
    stopLoss: levels.stop ?? null,
    targetPrice: levels.target ?? null,
    createdAt: `2026-03-0${Math.min(id, 9)}T08:00:00.000Z`,
  };
}
const r2 = (v: number) => Math.round(v * 100) / 100;

describe("paper execution, one session at a time", () => {
  it("a buy fills at the open plus slippage, in whole lots of half the equity, fees paid; marked at the close", () => {
    const buy = call("600519", "buy", { stop: 90, target: 130 });
    const day = runSession(cn, start(100_000), "2026-03-02", bars({ "600519": bar("2026-03-02", 100, 104, 99, 103) }), [
      buy,
    ]);
    const price = 100 * 1.0005; // 5 bps
    const shares = Math.floor(50_000 / (price * 100)) * 100; // 400: half the equity, whole lots
    const notional = r2(shares * price);
    const fees = r2(Math.max(5, notional * 0.00025));
    expect(day.fills).toEqual([
      {
        session: "2026-03-02",
        code: "600519",
        side: "buy",
        quantity: shares,
        price,
        fees,
        reason: "buy_call",
        signalId: buy.signalId,
        reportId: buy.reportId,
      },
    ]);
    expect(shares).toBe(400);
    expect(day.cash).toBe(r2(100_000 - notional - fees));
    expect(day.equity).toBe(r2(day.cash + shares * 103));
  });

  it("A-shares: a stop touched on the buy session waits (T+1) and fills the next session, at the open when it gapped", () => {
    const s1 = runSession(cn, start(100_000), "2026-03-02", bars({ A: bar("2026-03-02", 10, 10.2, 9, 9.5) }), [
      call("A", "buy", { stop: 9.4 }),
    ]);
    expect(s1.fills.map((f) => f.side)).toEqual(["buy"]);
    const held = s1.state.positions[0]!.quantity;
    const s2 = runSession(cn, s1.state, "2026-03-03", bars({ A: bar("2026-03-03", 9.2, 9.6, 9.1, 9.3) }), []);
    const exit = 9.2 * (1 - 0.0005); // gapped below the stop: the open, less slippage
    expect(s2.fills).toEqual([
      expect.objectContaining({ side: "sell", reason: "stop", quantity: held, price: r2(exit * 10_000) / 10_000 }),
    ]);
    const notional = r2(held * exit);
    expect(s2.fills[0]!.fees).toBe(r2(Math.max(5, notional * 0.00025) + notional * 0.0005));
    expect(s2.state.positions).toEqual([]);
    expect(s2.equity).toBe(s2.cash);
  });

  it("the stop first when both levels are touched in one session; a target alone fills at the target", () => {
    const opened = runSession(us, start(10_000), "2026-03-02", bars({ X: bar("2026-03-02", 50, 50.5, 49.8, 50) }), [
      call("X", "buy", { stop: 48, target: 55 }),
      call("Y", "buy", { stop: 18, target: 22 }),
    ]);
    // Y has no bar: it waits.
    expect(opened.notes).toEqual([expect.objectContaining({ code: "Y", note: "waiting_no_bar" })]);
    const both = runSession(
      us,
      opened.state,
      "2026-03-03",
      bars({ X: bar("2026-03-03", 50, 56, 47, 51), Y: bar("2026-03-03", 20, 23, 19.5, 22.5) }),
      [],
    );
    const x = both.fills.find((f) => f.code === "X")!;
    expect(x).toMatchObject({ side: "sell", reason: "stop", price: 47.976 }); // 48 less 5 bps
    const y = both.fills.filter((f) => f.code === "Y");
    // Y bought at this open, then its target touched the same session (no T+1 in the US).
    expect(y.map((f) => [f.side, f.reason])).toEqual([
      ["buy", "buy_call"],
      ["sell", "target"],
    ]);
    expect(y[1]!.price).toBe(21.989); // 22 less 5 bps
  });

  it("equal weight holds at most N positions; a sell closes at the open and a reduce sells half the lots", () => {
    const three = runSession(
      cn,
      start(60_000),
      "2026-03-02",
      bars({ A: bar("d", 10, 10, 10, 10), B: bar("d", 20, 20, 20, 20), C: bar("d", 30, 30, 30, 30) }),
      [call("A", "buy"), call("B", "buy"), call("C", "buy")],
    );
    expect(three.fills.map((f) => f.code)).toEqual(["A", "B"]);
    expect(three.notes).toEqual([expect.objectContaining({ code: "C", note: "skipped_full" })]);
    const a = three.state.positions.find((p) => p.code === "A")!.quantity;
    const b = three.state.positions.find((p) => p.code === "B")!.quantity;
    const next = runSession(
      cn,
      three.state,
      "2026-03-03",
      bars({ A: bar("d", 11, 11, 11, 11), B: bar("d", 21, 21, 21, 21) }),
      [call("A", "sell"), call("B", "reduce")],
    );
    expect(next.fills.map((f) => [f.code, f.quantity, f.reason])).toEqual([
      ["A", a, "sell_call"],
      ["B", Math.floor(b / 100 / 2) * 100, "reduce_call"],
    ]);
    expect(next.state.positions.map((p) => [p.code, p.quantity])).toEqual([["B", b - Math.floor(b / 100 / 2) * 100]]);
  });

  it("a buy that one lot and its fees do not fit is skipped; a sell of a stock not held changes nothing", () => {
    const poor = runSession(
      cn,
      start(900),
      "2026-03-02",
      bars({ A: bar("d", 10, 10, 10, 10), B: bar("d", 5, 5, 5, 5) }),
      [call("A", "buy"), call("B", "sell")],
    );
    expect(poor.fills).toEqual([]);
    expect(poor.notes.map((n) => n.note).sort()).toEqual(["skipped_cash", "skipped_not_held"]);
    expect(poor.equity).toBe(900);
  });
});

describe("sessions", () => {
  it("a call after the close acts at the next session's open; one before the open at that day's", () => {
    // 2026-03-02 is a Monday; 16:00 Shanghai is after the close, 09:00 before the open.
    expect(actionableSession("cn", new Date("2026-03-02T08:00:00Z"))).toBe("2026-03-03");
    expect(actionableSession("cn", new Date("2026-03-02T01:00:00Z"))).toBe("2026-03-02");
    // A Friday evening call acts on Monday.
    expect(actionableSession("us", new Date("2026-03-06T22:00:00Z"))).toBe("2026-03-09");
    expect(sessionsBetween("cn", "2026-02-27", "2026-03-04")).toEqual(["2026-03-02", "2026-03-03", "2026-03-04"]);
  });
});
