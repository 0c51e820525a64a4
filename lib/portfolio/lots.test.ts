import { describe, expect, it } from "vitest";
import { foldTrades, OversellError, quantityAt, type LotAction, type LotTrade } from "./lots";

let id = 0;
const buy = (quantity: number, price: number, fee = 0, tradeDate = "2026-01-02"): LotTrade => ({
  id: ++id,
  side: "buy",
  quantity,
  price,
  fee,
  tradeDate,
});
const sell = (quantity: number, price: number, fee = 0, tradeDate = "2026-02-02"): LotTrade => ({
  id: ++id,
  side: "sell",
  quantity,
  price,
  fee,
  tradeDate,
});

describe("positions from trades", () => {
  it("FIFO and average cost differ after a partial sell; fees are costs and reduce proceeds", () => {
    const state = foldTrades([buy(100, 10, 10), buy(100, 20, 0), sell(150, 30, 15)]);
    // Lots: 100 @ 10.10, 100 @ 20. Average 15.05.
    expect(state.quantity).toBe(50);
    expect(state.avgCost).toBeCloseTo(15.05, 10);
    expect(state.fifoCost).toBeCloseTo(20, 10);
    // Proceeds per share 29.9. FIFO: 100 × (29.9 − 10.1) + 50 × (29.9 − 20) = 1980 + 495.
    expect(state.realizedFifo).toBeCloseTo(2475, 8);
    // Average: 150 × (29.9 − 15.05) = 2227.5.
    expect(state.realizedAvg).toBeCloseTo(2227.5, 8);
  });

  it("selling everything leaves a flat position with no cost; buying again starts a new average", () => {
    const state = foldTrades([buy(10, 5), sell(10, 6), buy(10, 8)]);
    expect(state).toMatchObject({ quantity: 10, avgCost: 8, fifoCost: 8, realizedAvg: 10, realizedFifo: 10 });
  });

  it("a sell of more than is held is refused with the trade's id", () => {
    const over = sell(11, 6);
    expect(() => foldTrades([buy(10, 5), over])).toThrow(OversellError);
    try {
      foldTrades([buy(10, 5), over]);
    } catch (error) {
      expect((error as OversellError).tradeId).toBe(over.id);
    }
  });

  it("quantity held at a date counts trades up to and including that date", () => {
    const trades = [buy(10, 5, 0, "2026-01-05"), sell(4, 6, 0, "2026-01-07")];
    expect(quantityAt(trades, "2026-01-04")).toBe(0);
    expect(quantityAt(trades, "2026-01-05")).toBe(10);
    expect(quantityAt(trades, "2026-01-07")).toBe(6);
  });
});

const split = (ratio: number, effectiveDate: string, actionId = 1000 + ++id): LotAction => ({
  id: actionId,
  type: "split_adjustment",
  effectiveDate,
  splitRatio: ratio,
});
const dividend = (perShare: number, effectiveDate: string): LotAction => ({
  id: 2000 + ++id,
  type: "cash_dividend",
  effectiveDate,
  cashDividendPerShare: perShare,
});

describe("taxes, splits and dividends (docs/api.md §12.1.10, §12.1.12)", () => {
  it("tax counts like a fee: in a buy's cost, out of a sell's proceeds", () => {
    const state = foldTrades([
      { ...buy(100, 10, 5, "2026-01-02"), tax: 1 },
      { ...sell(50, 12, 2, "2026-01-05"), tax: 3 },
    ]);
    // Cost per share (1000 + 6) / 100 = 10.06; proceeds per share (600 − 5) / 50 = 11.9.
    expect(state.avgCost).toBeCloseTo(10.06, 10);
    expect(state.realizedFifo).toBeCloseTo(50 * (11.9 - 10.06), 10);
    expect(state.realizedAvg).toBeCloseTo(50 * (11.9 - 10.06), 10);
  });

  it("a split multiplies the shares held at its date and divides each lot's cost; total cost stays", () => {
    const state = foldTrades(
      [buy(100, 10, 0, "2026-01-02"), buy(100, 20, 0, "2026-01-03"), sell(300, 8, 0, "2026-02-10")],
      [split(2, "2026-02-01")],
    );
    // After the split: lots 200 @ 5, 200 @ 10 (avg 7.5); selling 300 @ 8: FIFO 200 × 3 + 100 × (−2) = 400; avg 300 × 0.5 = 150.
    expect(state.quantity).toBe(100);
    expect(state.fifoCost).toBeCloseTo(10, 10);
    expect(state.avgCost).toBeCloseTo(7.5, 10);
    expect(state.realizedFifo).toBeCloseTo(400, 10);
    expect(state.realizedAvg).toBeCloseTo(150, 10);
    // The sell of 300 is only possible because the split came first on the timeline.
    expect(() =>
      foldTrades([buy(100, 10, 0, "2026-01-02"), sell(150, 8, 0, "2026-01-20")], [split(2, "2026-02-01")]),
    ).toThrow(OversellError);
    expect(quantityAt([buy(100, 10, 0, "2026-01-02")], "2026-01-31", [split(2, "2026-02-01")])).toBe(100);
    expect(quantityAt([buy(100, 10, 0, "2026-01-02")], "2026-02-01", [split(2, "2026-02-01")])).toBe(200);
  });

  it("a split on a trade's date applies before the trade; a reverse split divides the shares", () => {
    const state = foldTrades(
      [buy(100, 10, 0, "2026-01-02"), buy(10, 100, 0, "2026-03-02")],
      [split(0.1, "2026-03-02")],
    );
    expect(state.quantity).toBe(20);
    expect(state.avgCost).toBeCloseTo(100, 10);
  });

  it("a cash dividend pays on the shares held at the start of its date, not on that day's buys", () => {
    const state = foldTrades(
      [buy(100, 10, 0, "2026-01-02"), buy(50, 10, 0, "2026-04-01"), sell(150, 10, 0, "2026-05-01")],
      [dividend(0.5, "2026-04-01"), dividend(1, "2026-06-01")],
    );
    expect(state.dividends).toBeCloseTo(50, 10);
    expect(state.quantity).toBe(0);
    expect(state.realizedFifo).toBe(0);
  });
});
