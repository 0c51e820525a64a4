import type { PaperAccount } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db, inTransaction } from "@/lib/db/client";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { BENCHMARK_INDEX, benchmarkBars } from "@/lib/market/benchmark";
import { marketDate, weekdaysBetween } from "@/lib/market/market-time";
import { resolveToken, type TMarket } from "@/lib/market/symbols";
import { closedTrades, paperStats } from "./record-stats";
import { findStrategy } from "@/lib/screening/saved-strategies";
import { actionableSession } from "./sessions";
import { cents, DEFAULT_FEES, DEFAULT_LOT, type PaperFees, type PaperRules, type PaperState } from "./engine";
import {
  CURRENCY,
  ZPaperFees,
  ZPaperFollow,
  ZPaperSizing,
  type TPaperAccount,
  type TPaperAccountCreate,
  type TPaperFees,
  type TPaperRecord,
} from "./schemas";

// Paper accounts and their record: made, read, paused and deleted here; lib/paper/run.ts walks their sessions.

/** At most this many accounts are kept. */
export const MAX_PAPER_ACCOUNTS = 20;

const toWireFees = (f: PaperFees): TPaperFees => ({
  commission_rate: f.commissionRate,
  min_commission: f.minCommission,
  buy_tax_rate: f.buyTaxRate,
  sell_tax_rate: f.sellTaxRate,
  slippage_bps: f.slippageBps,
});
const fromWireFees = (f: TPaperFees): PaperFees => ({
  commissionRate: f.commission_rate,
  minCommission: f.min_commission,
  buyTaxRate: f.buy_tax_rate,
  sellTaxRate: f.sell_tax_rate,
  slippageBps: f.slippage_bps,
});

export function rulesOf(row: PaperAccount): PaperRules {
  const market = row.market as PaperRules["market"];
  return {
    market,
    sizing: ZPaperSizing.parse(JSON.parse(row.sizing)),
    fees: fromWireFees(ZPaperFees.parse(JSON.parse(row.fees))),
    lotSize: row.lotSize,
    tPlusOne: market === "cn",
  };
}

export const stateOf = (row: PaperAccount): PaperState => JSON.parse(row.state) as PaperState;

export async function createPaperAccount(input: TPaperAccountCreate): Promise<TPaperAccount> {
  if (input.follow.kind === "screening" && !(await findStrategy(input.follow.strategy)))
    throw ApiError.of("validation_error", `No screening strategy ${input.follow.strategy}`);
  if (input.follow.kind === "codes") {
    for (const code of input.follow.codes) {
      const resolved = resolveToken(code);
      if (!("kind" in resolved) || resolved.kind !== "stock" || resolved.market !== input.market)
        throw ApiError.of("validation_error", `${code} is not a stock of the ${input.market} market`);
    }
  }
  const created = now();
  const state: PaperState = { cash: cents(input.starting_cash), positions: [], waiting: [] };
  const row = await inTransaction(async (tx) => {
    if ((await tx.paperAccount.count()) >= MAX_PAPER_ACCOUNTS)
      throw ApiError.of("validation_error", `At most ${MAX_PAPER_ACCOUNTS} paper accounts are kept; delete one first`);
    return tx.paperAccount.create({
      data: {
        name: input.name,
        market: input.market,
        currency: CURRENCY[input.market],
        startingCash: cents(input.starting_cash),
        follow: JSON.stringify(input.follow),
        sizing: JSON.stringify(input.sizing),
        fees: JSON.stringify({ ...toWireFees(DEFAULT_FEES[input.market]), ...input.fees }),
        lotSize: DEFAULT_LOT[input.market],
        status: "active",
        // Only calls made after the account exists count: it starts at the first session that opens after now.
        startSession: actionableSession(input.market, created),
        lastSession: null,
        state: JSON.stringify(state),
        createdAt: created,
        updatedAt: created,
      },
    });
  });
  return toWire(row);
}

export async function paperAccountRow(id: number): Promise<PaperAccount> {
  const row = await db().paperAccount.findUnique({ where: { id } });
  if (!row) throw notFound(`No paper account ${id}`);
  return row;
}

export function toWire(row: PaperAccount): TPaperAccount {
  const state = stateOf(row);
  const rules = rulesOf(row);
  const positions = state.positions.map((p) => ({
    code: p.code,
    quantity: p.quantity,
    avg_cost: Math.round(p.avgCost * 10_000) / 10_000,
    last_close: p.lastClose,
    market_value: cents(p.quantity * p.lastClose),
    unrealized_pnl: cents(p.quantity * (p.lastClose - p.avgCost)),
    opened_session: p.openedSession,
    stop_loss: p.stopLoss,
    target_price: p.targetPrice,
    signal_id: p.signalId,
    report_id: p.reportId,
  }));
  const equity = cents(state.cash + positions.reduce((s, p) => s + p.market_value, 0));
  return {
    id: row.id,
    name: row.name,
    market: rules.market,
    currency: row.currency,
    starting_cash: row.startingCash,
    follow: ZPaperFollow.parse(JSON.parse(row.follow)),
    sizing: rules.sizing,
    fees: toWireFees(rules.fees),
    lot_size: row.lotSize,
    t_plus_one: rules.tPlusOne,
    status: row.status === "paused" ? "paused" : "active",
    start_session: row.startSession,
    last_session: row.lastSession,
    cash: state.cash,
    equity,
    return_pct: Math.round((equity / row.startingCash - 1) * 10_000) / 100,
    positions,
    waiting: state.waiting.map((c) => ({ code: c.code, signal_id: c.signalId, action: c.action })),
    created_at: row.createdAt.toISOString(),
  };
}

export async function listPaperAccounts(): Promise<{ items: TPaperAccount[] }> {
  const rows = await db().paperAccount.findMany({ orderBy: { id: "asc" } });
  return { items: rows.map(toWire) };
}

export async function paperRecord(id: number): Promise<TPaperRecord> {
  const row = await paperAccountRow(id);
  const [days, fills] = await Promise.all([
    db().paperDay.findMany({ where: { accountId: id }, orderBy: { session: "asc" } }),
    db().paperFill.findMany({ where: { accountId: id }, orderBy: [{ session: "asc" }, { id: "asc" }] }),
  ]);
  const market = row.market as TMarket;
  const index =
    days.length > 0
      ? await benchmarkBars(market, weekdaysBetween(days[0]!.session, marketDate(market, now())) + 10)
      : null;
  const closes = index ? new Map(index.map((b) => [b.date, b.close])) : null;
  const covered = closes !== null && days.length > 0 && days.every((d) => closes.has(d.session));
  const stats = paperStats(row.startingCash, days, fills, covered ? closes : null);
  return {
    account: toWire(row),
    days: days.map((d) => ({
      session: d.session,
      cash: d.cash,
      market_value: d.marketValue,
      equity: d.equity,
      positions: d.positions,
      notes: JSON.parse(d.notes) as TPaperRecord["days"][number]["notes"],
    })),
    fills: fills.map((f) => ({
      id: f.id,
      session: f.session,
      code: f.code,
      side: f.side as "buy" | "sell",
      quantity: f.quantity,
      price: f.price,
      fees: f.fees,
      reason: f.reason as TPaperRecord["fills"][number]["reason"],
      signal_id: f.signalId,
      report_id: f.reportId,
    })),
    trades: closedTrades(fills),
    stats,
    benchmark:
      covered && closes
        ? {
            code: BENCHMARK_INDEX[market],
            points: days.map((d) => ({
              session: d.session,
              value: cents((days[0]!.equity * closes.get(d.session)!) / closes.get(days[0]!.session)!),
            })),
          }
        : null,
  };
}

export async function setPaperStatus(id: number, status: "active" | "paused"): Promise<TPaperAccount> {
  await paperAccountRow(id);
  return toWire(await db().paperAccount.update({ where: { id }, data: { status, updatedAt: now() } }));
}

export async function deletePaperAccount(id: number): Promise<void> {
  await paperAccountRow(id);
  await inTransaction(async (tx) => {
    await tx.paperFill.deleteMany({ where: { accountId: id } });
    await tx.paperDay.deleteMany({ where: { accountId: id } });
    await tx.paperAccount.delete({ where: { id } });
  });
}
