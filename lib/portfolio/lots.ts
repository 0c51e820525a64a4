// Position arithmetic (docs/api.md §12.1.12): pure functions over one target's trades and corporate
// actions in date order. Fees and taxes are part of the cost of a buy and reduce the proceeds of a sell. FIFO keeps
// the open lots; average cost keeps one pool. Corporate actions take effect at the start of their date, before that
// day's trades: a split multiplies the shares held and divides every per-share cost by its ratio (total cost
// unchanged); a cash dividend pays per share held then, and counts as realized income under both methods.

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

export interface LotAction {
  id: number;
  type: "cash_dividend" | "split_adjustment";
  effectiveDate: string;
  /** cash_dividend: cash per share held at the start of effectiveDate. */
  cashDividendPerShare?: number | null;
  /** split_adjustment: new shares per old share (2 = two-for-one; 0.1 = a one-for-ten reverse split). */
  splitRatio?: number | null;
}

export interface PositionState {
  quantity: number;
  /** Moving average cost per share of the open quantity (null when flat). */
  avgCost: number | null;
  /** Cost per share of the open FIFO lots (null when flat). */
  fifoCost: number | null;
  /** Realized trading P&L of each method (dividends apart). */
  realizedAvg: number;
  realizedFifo: number;
  /** Cash dividends received (quantity held × per-share amount, at each effective date). */
  dividends: number;
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

type Step = { date: string; trade?: LotTrade; action?: LotAction };

/**
 * Trades in the order given (callers pass them by date, then id) with each action placed before the first trade on or
 * after its date (actions by date, then id); actions after the last trade come last.
 */
function steps(trades: readonly LotTrade[], actions: readonly LotAction[]): Step[] {
  const pending = [...actions].sort((a, b) =>
    a.effectiveDate < b.effectiveDate ? -1 : a.effectiveDate > b.effectiveDate ? 1 : a.id - b.id,
  );
  const out: Step[] = [];
  let next = 0;
  for (const trade of trades) {
    while (next < pending.length && pending[next]!.effectiveDate <= trade.tradeDate) {
      out.push({ date: pending[next]!.effectiveDate, action: pending[next] });
      next++;
    }
    out.push({ date: trade.tradeDate, trade });
  }
  for (; next < pending.length; next++) out.push({ date: pending[next]!.effectiveDate, action: pending[next] });
  return out;
}

/** A target's trades (and corporate actions) folded into the position they leave. */
export function foldTrades(trades: readonly LotTrade[], actions: readonly LotAction[] = []): PositionState {
  const lots: { quantity: number; unitCost: number }[] = [];
  let quantity = 0;
  let avgCost = 0;
  let realizedAvg = 0;
  let realizedFifo = 0;
  let dividends = 0;
  for (const step of steps(trades, actions)) {
    const action = step.action;
    if (action) {
      if (action.type === "split_adjustment" && action.splitRatio && action.splitRatio > 0) {
        const ratio = action.splitRatio;
        quantity *= ratio;
        avgCost /= ratio;
        for (const lot of lots) {
          lot.quantity *= ratio;
          lot.unitCost /= ratio;
        }
      } else if (action.type === "cash_dividend" && action.cashDividendPerShare) {
        dividends += quantity * action.cashDividendPerShare;
      }
      continue;
    }
    const trade = step.trade!;
    const costs = trade.fee + (trade.tax ?? 0);
    if (trade.side === "buy") {
      const unitCost = (trade.quantity * trade.price + costs) / trade.quantity;
      avgCost = (quantity * avgCost + trade.quantity * unitCost) / (quantity + trade.quantity);
      quantity += trade.quantity;
      lots.push({ quantity: trade.quantity, unitCost });
      continue;
    }
    if (trade.quantity > quantity + EPSILON) throw new OversellError(trade.id, quantity, trade.quantity);
    const unitProceeds = (trade.quantity * trade.price - costs) / trade.quantity;
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
      lots.length = 0;
    }
  }
  const open = lots.reduce((sum, lot) => sum + lot.quantity, 0);
  const fifoCost = open > EPSILON ? lots.reduce((sum, lot) => sum + lot.quantity * lot.unitCost, 0) / open : null;
  return { quantity, avgCost: quantity > 0 ? avgCost : null, fifoCost, realizedAvg, realizedFifo, dividends };
}

/** Quantity held at the end of a date (splits applied): the holdings path the risk series needs. */
export function quantityAt(trades: readonly LotTrade[], date: string, actions: readonly LotAction[] = []): number {
  let quantity = 0;
  for (const step of steps(trades, actions)) {
    if (step.date > date) continue;
    if (step.trade) quantity += step.trade.side === "buy" ? step.trade.quantity : -step.trade.quantity;
    else if (step.action!.type === "split_adjustment" && step.action!.splitRatio && step.action!.splitRatio > 0)
      quantity *= step.action!.splitRatio;
  }
  return Math.max(0, quantity);
}
