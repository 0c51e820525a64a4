// Position arithmetic (issue 9 item 3): pure functions over a target's trades in date order. Fees are part of
// the cost of a buy and reduce the proceeds of a sell (taxes too). FIFO keeps the open lots; average cost keeps one pool.

export interface LotTrade {
  id: number;
  side: "buy" | "sell";
  quantity: number;
  price: number;
  fee: number;
  /** Taxes (stamp duty) count like fees: part of a buy's cost, taken from a sell's proceeds. */
  tax?: number;
  tradeDate: string;
}

export interface PositionState {
  quantity: number;
  /** Moving average cost per share of the open quantity (null when flat). */
  avgCost: number | null;
  /** Cost per share of the open FIFO lots (null when flat). */
  fifoCost: number | null;
  realizedAvg: number;
  realizedFifo: number;
}

export class OversellError extends Error {
  constructor(
    readonly tradeId: number,
    readonly held: number,
    readonly sold: number,
  ) {
    super(`trade ${tradeId} sells ${sold} but only ${held} are held at that date`);
    this.name = "OversellError";
  }
}

const EPSILON = 1e-9;

/** Trades of one target, oldest first (date, then id), folded into the position they leave. */
export function foldTrades(trades: readonly LotTrade[]): PositionState {
  const lots: { quantity: number; unitCost: number }[] = [];
  let quantity = 0;
  let avgCost = 0;
  let realizedAvg = 0;
  let realizedFifo = 0;
  for (const trade of trades) {
    if (trade.side === "buy") {
      const unitCost = (trade.quantity * trade.price + trade.fee + (trade.tax ?? 0)) / trade.quantity;
      avgCost = (quantity * avgCost + trade.quantity * unitCost) / (quantity + trade.quantity);
      quantity += trade.quantity;
      lots.push({ quantity: trade.quantity, unitCost });
      continue;
    }
    if (trade.quantity > quantity + EPSILON) throw new OversellError(trade.id, quantity, trade.quantity);
    const unitProceeds = (trade.quantity * trade.price - trade.fee - (trade.tax ?? 0)) / trade.quantity;
    realizedAvg += trade.quantity * (unitProceeds - avgCost);
    let left = trade.quantity;
    while (left > EPSILON && lots.length > 0) {
      const lot = lots[0]!;
      const take = Math.min(lot.quantity, left);
      realizedFifo += take * (unitProceeds - lot.unitCost);
      lot.quantity -= take;
      left -= take;
      if (lot.quantity <= EPSILON) lots.shift();
    }
    quantity -= trade.quantity;
    if (quantity <= EPSILON) {
      quantity = 0;
      avgCost = 0;
    }
  }
  const open = lots.reduce((sum, lot) => sum + lot.quantity, 0);
  const fifoCost = open > EPSILON ? lots.reduce((sum, lot) => sum + lot.quantity * lot.unitCost, 0) / open : null;
  return { quantity, avgCost: quantity > 0 ? avgCost : null, fifoCost, realizedAvg, realizedFifo };
}

/** Quantity held after each date: the holdings path the risk series needs. */
export function quantityAt(trades: readonly LotTrade[], date: string): number {
  let quantity = 0;
  for (const trade of trades) {
    if (trade.tradeDate > date) break;
    quantity += trade.side === "buy" ? trade.quantity : -trade.quantity;
  }
  return Math.max(0, quantity);
}
