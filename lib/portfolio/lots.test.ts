import { describe, expect, it } from "vitest";
import { foldTrades, OversellError, quantityAt, type LotTrade } from "./lots";

let id = 0;
const buy = (quantity: number, price: number, fee = 0, tradeDate = "2026-01-02"): LotTrade => ({ id: ++id, side: "buy", quantity, price, fee, tradeDate });
const sell = (quantity: number, price: number, fee = 0, tradeDate = "2026-02-02"): LotTrade => ({ id: ++id, side: "sell", quantity, price, fee, tradeDate });

describe("positions from trades (issue 9 item 3)", () => {
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
