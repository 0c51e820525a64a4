import { describe, expect, it } from "vitest";
import { closedTrades, paperStats, type DayRow, type FillRow } from "./record-stats";

// The record's figures on hand-made days and fills, each worked out here.

const fill = (session: string, side: "buy" | "sell", quantity: number, price: number, fees: number): FillRow => ({
  session,
  code: "A",
  side,
  quantity,
  price,
  fees,
  reason: side === "buy" ? "buy_call" : "stop",
  signalId: 7,
  reportId: 70,
});

describe("a paper account's record in figures", () => {
  it("a closed trade's return counts the fees of both sides", () => {
    const [trade] = closedTrades([fill("d1", "buy", 100, 10, 5), fill("d3", "sell", 100, 11, 5.55)]);
    // cost 10.05 a share; proceeds 1100 - 5.55 = 1094.45 against 1005.
    expect(trade).toMatchObject({ entry_cost: 10.05, exit_price: 11, return_pct: 8.9, signal_id: 7, report_id: 70 });
  });

  it("return, drawdown, exposure and turnover; too few sessions is insufficient whatever the excess", () => {
    const days: DayRow[] = [
      { session: "d1", equity: 100_000, marketValue: 50_000 },
      { session: "d2", equity: 110_000, marketValue: 60_000 },
      { session: "d3", equity: 99_000, marketValue: 0 },
    ];
    const fills = [fill("d1", "buy", 100, 500, 5), fill("d3", "sell", 100, 400, 5)];
    const stats = paperStats(
      100_000,
      days,
      fills,
      new Map([
        ["d1", 10],
        ["d2", 10],
        ["d3", 10],
      ]),
    );
    expect(stats).toMatchObject({
      sessions: 3,
      return_pct: -1,
      benchmark_return_pct: 0,
      max_drawdown_pct: -10, // 99,000 against the peak of 110,000
      exposure_pct: Math.round(((0.5 + 60 / 110 + 0) / 3) * 10_000) / 100,
      turnover: Math.round((90_000 / ((100_000 + 110_000 + 99_000) / 3)) * 100) / 100,
      trades: 1,
      wins: 0,
      win_rate_pct: 0,
      verdict: "insufficient",
    });
    expect(stats.daily_excess?.n).toBe(2);
  });

  it("an edge only when the whole interval is above 0; no index is insufficient", () => {
    const steady: DayRow[] = Array.from({ length: 40 }, (_, i) => ({
      session: `s${String(i).padStart(2, "0")}`,
      equity: 100_000 * 1.001 ** i * (1 + (i % 2) * 0.0001),
      marketValue: 0,
    }));
    const flatIndex = new Map(steady.map((d) => [d.session, 100]));
    expect(paperStats(100_000, steady, [], flatIndex).verdict).toBe("edge");
    const noisy = steady.map((d, i) => ({ ...d, equity: 100_000 * (1 + (i % 2 === 0 ? 0.01 : -0.01)) }));
    expect(paperStats(100_000, noisy, [], flatIndex).verdict).toBe("no_measurable_edge");
    expect(paperStats(100_000, steady, [], null)).toMatchObject({ verdict: "insufficient", daily_excess: null });
  });
});
