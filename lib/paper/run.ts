import type { PaperAccount } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db, inTransaction } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { logger } from "@/lib/log/logger";
import { getDailyBars } from "@/lib/market";
import { previousTradingDay } from "@/lib/market/calendar";
import { lastClosedTradingDay, marketDate, weekdaysBetween } from "@/lib/market/market-time";
import { resolveToken, type TMarket, type TResolvedStock } from "@/lib/market/symbols";
import { runResult } from "@/lib/screening/stored-run";
import { getWatchlist } from "@/lib/watchlist/store";
import {
  runSession,
  type PaperAction,
  type PaperBar,
  type PaperCall,
  type PaperFill,
  type SessionResult,
} from "./engine";
import { notifyPaperFills } from "./fill-notice";
import { ZPaperFollow, type TPaperRunResult } from "./schemas";
import { actionableSession, sessionsBetween } from "./sessions";
import { paperAccountRow, rulesOf, stateOf, toWire } from "./store";

// The daily run of a paper account: every session from the one after its last processed session up to the market's
// last closed session, in order. Each session is written in one transaction (its day row, unique per account and
// session, its fills, and the account's state), guarded by the last session it started from: a second run of the
// same session (another replica, or a restart after kill -9 part way) writes nothing, so nothing is filled twice.

/** Bars read per stock: one per weekday from the first session walked to today, and a few more to spare. */
const EXTRA_BARS = 10;
const MAX_BARS = 1000;

interface Followed {
  stocks: TResolvedStock[];
  /** For a screening account: when each stock first became a candidate (its calls count from then on). */
  since: Map<string, Date> | null;
}

/** The stocks whose calls the account follows, as they are now. */
async function followed(row: PaperAccount): Promise<Followed> {
  const follow = ZPaperFollow.parse(JSON.parse(row.follow));
  const since = follow.kind === "screening" ? await candidatesSince(row, follow.strategy) : null;
  const tokens = follow.kind === "codes" ? follow.codes : since ? [...since.keys()] : getWatchlist().stock_codes;
  const stocks = new Map<string, TResolvedStock>();
  for (const token of tokens) {
    const resolved = resolveToken(token);
    if ("kind" in resolved && resolved.kind === "stock" && resolved.market === row.market)
      stocks.set(resolved.displayCode, resolved);
  }
  return { stocks: [...stocks.values()], since };
}

/** Each candidate of the strategy's stored runs over the account's market since it started, with its first run. */
async function candidatesSince(row: PaperAccount, strategy: string): Promise<Map<string, Date>> {
  const runs = await db().screeningRun.findMany({
    where: { strategy, market: row.market, createdAt: { gt: row.createdAt } },
    orderBy: { createdAt: "asc" },
  });
  const since = new Map<string, Date>();
  for (const run of runs)
    for (const c of runResult(run).candidates) if (!since.has(c.code)) since.set(c.code, run.createdAt);
  return since;
}

/** The calls on the account's stocks made since it exists, by the session they first act on. */
async function callsBySession(
  row: PaperAccount,
  codes: string[],
  market: TMarket,
  since: Map<string, Date> | null,
): Promise<Map<string, PaperCall[]>> {
  const signals = await db().decisionSignal.findMany({
    where: { market, stockCode: { in: codes }, createdAt: { gt: row.createdAt } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const out = new Map<string, PaperCall[]>();
  for (const s of signals) {
    const from = since?.get(s.stockCode);
    if (from && s.createdAt < from) continue;
    const session = actionableSession(market, s.createdAt);
    const list = out.get(session) ?? [];
    list.push({
      signalId: s.id,
      reportId: s.sourceReportId,
      code: s.stockCode,
      action: s.action as PaperAction,
      stopLoss: s.stopLoss,
      targetPrice: s.targetPrice,
      createdAt: s.createdAt.toISOString(),
    });
    out.set(session, list);
  }
  return out;
}

async function barsByCode(stocks: TResolvedStock[], count: number): Promise<Map<string, Map<string, PaperBar>>> {
  const out = new Map<string, Map<string, PaperBar>>();
  await Promise.all(
    stocks.map(async (stock) => {
      try {
        const { bars } = await getDailyBars(stock, Math.min(MAX_BARS, count));
        out.set(stock.displayCode, new Map(bars.map((b) => [b.date, b])));
      } catch (error) {
        // No bars for the stock now: its calls wait, and its position keeps its last close.
        logger.warn({ code: stock.displayCode, err: error }, "paper: no bars");
        out.set(stock.displayCode, new Map());
      }
    }),
  );
  return out;
}

/** Writes one session; false when another run wrote it first (the account had moved past `from`). */
async function commitSession(row: PaperAccount, from: string | null, session: string, result: SessionResult) {
  try {
    await inTransaction(async (tx) => {
      const at = now();
      await tx.paperDay.create({
        data: {
          accountId: row.id,
          session,
          cash: result.cash,
          marketValue: result.marketValue,
          equity: result.equity,
          positions: result.state.positions.length,
          notes: JSON.stringify(result.notes.map((n) => ({ code: n.code, signal_id: n.signalId, note: n.note }))),
          createdAt: at,
        },
      });
      if (result.fills.length > 0)
        await tx.paperFill.createMany({
          data: result.fills.map((f) => ({ accountId: row.id, ...f, createdAt: at })),
        });
      const moved = await tx.paperAccount.updateMany({
        where: { id: row.id, lastSession: from },
        data: { lastSession: session, state: JSON.stringify(result.state), updatedAt: at },
      });
      if (moved.count !== 1) throw new LostRace();
    });
    return true;
  } catch (error) {
    if (error instanceof LostRace || isUniqueViolation(error)) return false;
    throw error;
  }
}

class LostRace extends Error {}

export async function runPaperAccount(id: number, at: Date = now()): Promise<TPaperRunResult> {
  let row = await paperAccountRow(id);
  const processed: string[] = [];
  let fills = 0;
  const filled: PaperFill[] = [];
  const rules = rulesOf(row);
  const upTo = lastClosedTradingDay(rules.market, at);
  const from = row.lastSession ?? previousTradingDay(rules.market, row.startSession);
  const sessions = row.status === "active" ? sessionsBetween(rules.market, from, upTo) : [];
  if (sessions.length > 0) {
    const { stocks, since } = await followed(row);
    const codes = stocks.map((s) => s.displayCode);
    const [calls, bars] = await Promise.all([
      callsBySession(row, codes, rules.market, since),
      // Counted in weekdays, not sessions: a provider may have a bar on an exchange holiday (sample data does).
      barsByCode(stocks, weekdaysBetween(sessions[0]!, marketDate(rules.market, at)) + 1 + EXTRA_BARS),
    ]);
    let state = stateOf(row);
    let last = row.lastSession;
    for (const session of sessions) {
      const dayBars = new Map<string, PaperBar>();
      for (const [code, byDate] of bars) {
        const bar = byDate.get(session);
        if (bar) dayBars.set(code, bar);
      }
      const result = runSession(rules, state, session, dayBars, calls.get(session) ?? []);
      if (!(await commitSession(row, last, session, result))) break;
      processed.push(session);
      fills += result.fills.length;
      filled.push(...result.fills);
      state = result.state;
      last = session;
    }
    row = await paperAccountRow(id);
  }
  notifyPaperFills(row, filled);
  const account = toWire(row);
  return { account_id: id, processed, fills, last_session: account.last_session, equity: account.equity };
}

/** The daily run: every active account, each on its own (one failing does not stop the others). */
export async function runPaperAccounts(at: Date = now()): Promise<TPaperRunResult[]> {
  const rows = await db().paperAccount.findMany({ where: { status: "active" }, select: { id: true } });
  const out: TPaperRunResult[] = [];
  for (const { id } of rows) {
    try {
      out.push(await runPaperAccount(id, at));
    } catch (error) {
      logger.error({ account_id: id, err: error }, "paper account run failed");
    }
  }
  return out;
}
