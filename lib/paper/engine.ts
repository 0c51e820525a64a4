import type { TMarket } from "@/lib/market/symbols";

// The paper account's execution rules, one session at a time. Pure: the caller hands in the session's bars and the
// calls that became actionable at its open; nothing here reads a clock or a database.
//
// Within one session, in this order:
//  1. Exits at the open: a sell call closes the position, a reduce call sells half of it (in whole lots), at the open
//     less slippage. A position bought this session cannot be sold in it where T+1 applies (A-shares).
//  2. Entries at the open: a buy or add call on a stock not held buys at the open plus slippage, sized by the account's
//     rule, in whole lots, with what cash allows after fees. A call on a held stock changes nothing but its plan.
//  3. Stops and targets in the session's range: the stop first when both are touched (the day's path is unknown, so
//     the worse case is assumed); a gap through the level fills at the open. Not on the buy session where T+1 applies.
//  4. Marked at the close (a stock without a bar keeps its last close).
// A call on a stock without a bar this session (suspended, not yet listed) waits for its next bar and says so.

export interface PaperFees {
  /** Commission as a fraction of the notional, per side. */
  commissionRate: number;
  /** The least commission of one fill, in the account's currency. */
  minCommission: number;
  /** Tax on buys and on sells, as fractions of the notional (A-share stamp duty is sell-side only). */
  buyTaxRate: number;
  sellTaxRate: number;
  /** Slippage in basis points: buys fill this much above the price, sells this much below. */
  slippageBps: number;
}

export type PaperSizing =
  | { kind: "equal_weight"; max_positions: number }
  | { kind: "fixed_fraction"; fraction: number };

export interface PaperRules {
  market: TMarket;
  sizing: PaperSizing;
  fees: PaperFees;
  lotSize: number;
  /** A share bought in a session can be sold only from the next one (A-shares). */
  tPlusOne: boolean;
}

export const DEFAULT_FEES: Record<TMarket, PaperFees> = {
  // Commission 0.025 % with a 5 CNY minimum; stamp duty 0.05 % on sells (since 2023-08-28).
  cn: { commissionRate: 0.00025, minCommission: 5, buyTaxRate: 0, sellTaxRate: 0.0005, slippageBps: 5 },
  // Commission 0.05 % with a 5 HKD minimum; stamp duty 0.1 % on both sides (not rounded up to the dollar here).
  hk: { commissionRate: 0.0005, minCommission: 5, buyTaxRate: 0.001, sellTaxRate: 0.001, slippageBps: 5 },
  // Commission-free, as most US brokers are now; regulatory fees are below a cent on these sizes.
  us: { commissionRate: 0, minCommission: 0, buyTaxRate: 0, sellTaxRate: 0, slippageBps: 5 },
};

/** Board lots: A-shares trade in 100s; Hong Kong lots differ by stock and none is recorded here, so 100; US by one. */
export const DEFAULT_LOT: Record<TMarket, number> = { cn: 100, hk: 100, us: 1 };

export interface PaperBar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
}

export type PaperAction = "buy" | "add" | "hold" | "reduce" | "sell" | "watch" | "avoid";

export interface PaperCall {
  signalId: number;
  reportId: number | null;
  code: string;
  action: PaperAction;
  stopLoss: number | null;
  targetPrice: number | null;
  /** When the call was made (ISO): the later of two calls on one stock wins. */
  createdAt: string;
}

export interface PaperPosition {
  code: string;
  quantity: number;
  /** Cost per share, fees of the buy included. */
  avgCost: number;
  openedSession: string;
  stopLoss: number | null;
  targetPrice: number | null;
  signalId: number;
  reportId: number | null;
  lastClose: number;
}

export interface PaperState {
  cash: number;
  positions: PaperPosition[];
  /** Calls waiting for a bar of their stock. */
  waiting: PaperCall[];
}

export type FillReason = "buy_call" | "add_call" | "sell_call" | "reduce_call" | "stop" | "target";

export interface PaperFill {
  session: string;
  code: string;
  side: "buy" | "sell";
  quantity: number;
  price: number;
  fees: number;
  reason: FillReason;
  signalId: number;
  reportId: number | null;
}

export interface PaperNote {
  session: string;
  code: string;
  signalId: number;
  note: "waiting_no_bar" | "skipped_full" | "skipped_cash" | "skipped_not_held";
}

export interface SessionResult {
  state: PaperState;
  fills: PaperFill[];
  notes: PaperNote[];
  cash: number;
  marketValue: number;
  equity: number;
}

export const cents = (value: number): number => Math.round(value * 100) / 100;
/** Fill prices keep four decimals (US quotes in tenths of a cent, A-share funds in thousandths of a yuan). */
const price4 = (value: number): number => Math.round(value * 10_000) / 10_000;

function feesOf(fees: PaperFees, side: "buy" | "sell", notional: number): number {
  const commission = Math.max(fees.minCommission, notional * fees.commissionRate);
  return cents(commission + notional * (side === "buy" ? fees.buyTaxRate : fees.sellTaxRate));
}

function marketValue(positions: readonly PaperPosition[]): number {
  return positions.reduce((sum, p) => sum + p.quantity * p.lastClose, 0);
}

/** The account's worth at the previous close: what sizing divides. */
function equityBefore(state: PaperState): number {
  return state.cash + marketValue(state.positions);
}

function latestPerCode(calls: readonly PaperCall[]): PaperCall[] {
  const byCode = new Map<string, PaperCall>();
  for (const call of calls) {
    const seen = byCode.get(call.code);
    if (!seen || call.createdAt >= seen.createdAt) byCode.set(call.code, call);
  }
  return [...byCode.values()];
}

export function runSession(
  rules: PaperRules,
  before: PaperState,
  session: string,
  bars: ReadonlyMap<string, PaperBar>,
  newCalls: readonly PaperCall[],
): SessionResult {
  const slip = rules.fees.slippageBps / 10_000;
  const fills: PaperFill[] = [];
  const notes: PaperNote[] = [];
  let cash = before.cash;
  const positions = before.positions.map((p) => ({ ...p }));
  const waiting: PaperCall[] = [];
  const held = (code: string) => positions.find((p) => p.code === code);
  const sizingEquity = equityBefore(before);

  const sell = (position: PaperPosition, quantity: number, rawPrice: number, reason: FillReason, call?: PaperCall) => {
    const price = price4(rawPrice * (1 - slip));
    const notional = cents(quantity * price);
    const fees = feesOf(rules.fees, "sell", notional);
    cash = cents(cash + notional - fees);
    position.quantity -= quantity;
    fills.push({
      session,
      code: position.code,
      side: "sell",
      quantity,
      price,
      fees,
      reason,
      signalId: call?.signalId ?? position.signalId,
      reportId: call ? call.reportId : position.reportId,
    });
  };

  const calls = latestPerCode([...before.waiting, ...newCalls]);
  // 1. exits at the open
  for (const call of calls.filter((c) => c.action === "sell" || c.action === "reduce")) {
    const position = held(call.code);
    if (!position) {
      notes.push({ session, code: call.code, signalId: call.signalId, note: "skipped_not_held" });
      continue;
    }
    const bar = bars.get(call.code);
    if (!bar) {
      waiting.push(call);
      notes.push({ session, code: call.code, signalId: call.signalId, note: "waiting_no_bar" });
      continue;
    }
    const lots = Math.floor(position.quantity / rules.lotSize);
    const quantity = call.action === "sell" ? position.quantity : Math.floor(lots / 2) * rules.lotSize;
    if (quantity > 0) sell(position, quantity, bar.open, call.action === "sell" ? "sell_call" : "reduce_call", call);
  }
  // 2. entries at the open
  for (const call of calls.filter((c) => c.action === "buy" || c.action === "add")) {
    const position = held(call.code);
    if (position && position.quantity > 0) {
      // A held stock keeps its shares; the newer call's plan levels replace the old ones.
      position.stopLoss = call.stopLoss;
      position.targetPrice = call.targetPrice;
      continue;
    }
    const bar = bars.get(call.code);
    if (!bar) {
      waiting.push(call);
      notes.push({ session, code: call.code, signalId: call.signalId, note: "waiting_no_bar" });
      continue;
    }
    const open = positions.filter((p) => p.quantity > 0).length;
    if (rules.sizing.kind === "equal_weight" && open >= rules.sizing.max_positions) {
      notes.push({ session, code: call.code, signalId: call.signalId, note: "skipped_full" });
      continue;
    }
    const budget =
      rules.sizing.kind === "equal_weight"
        ? sizingEquity / rules.sizing.max_positions
        : sizingEquity * rules.sizing.fraction;
    const price = price4(bar.open * (1 + slip));
    const lot = rules.lotSize * price;
    let lots = Math.floor(Math.min(budget, cash) / lot);
    // Fees come out of the same cash: one lot fewer until the buy and its fees fit.
    while (lots > 0 && cents(lots * lot) + feesOf(rules.fees, "buy", cents(lots * lot)) > cash) lots -= 1;
    if (lots === 0) {
      notes.push({ session, code: call.code, signalId: call.signalId, note: "skipped_cash" });
      continue;
    }
    const quantity = lots * rules.lotSize;
    const notional = cents(quantity * price);
    const fees = feesOf(rules.fees, "buy", notional);
    cash = cents(cash - notional - fees);
    positions.push({
      code: call.code,
      quantity,
      avgCost: (notional + fees) / quantity,
      openedSession: session,
      stopLoss: call.stopLoss,
      targetPrice: call.targetPrice,
      signalId: call.signalId,
      reportId: call.reportId,
      lastClose: bar.close,
    });
    fills.push({
      session,
      code: call.code,
      side: "buy",
      quantity,
      price,
      fees,
      reason: call.action === "add" ? "add_call" : "buy_call",
      signalId: call.signalId,
      reportId: call.reportId,
    });
  }
  // 3. stops and targets within the session's range
  for (const position of positions) {
    const bar = bars.get(position.code);
    if (!bar || position.quantity === 0) continue;
    if (rules.tPlusOne && position.openedSession === session) continue;
    if (position.stopLoss !== null && bar.low <= position.stopLoss)
      sell(position, position.quantity, Math.min(bar.open, position.stopLoss), "stop");
    else if (position.targetPrice !== null && bar.high >= position.targetPrice)
      sell(position, position.quantity, Math.max(bar.open, position.targetPrice), "target");
  }
  // 4. marked at the close
  for (const position of positions) {
    const bar = bars.get(position.code);
    if (bar) position.lastClose = bar.close;
  }
  const kept = positions.filter((p) => p.quantity > 0);
  const value = cents(marketValue(kept));
  return {
    state: { cash, positions: kept, waiting },
    fills,
    notes,
    cash,
    marketValue: value,
    equity: cents(cash + value),
  };
}
