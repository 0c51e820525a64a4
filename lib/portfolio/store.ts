import type { PortfolioAccount, PortfolioPosition, PortfolioTrade } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db, inTransaction, type Tx } from "@/lib/db/client";
import { ApiError, notFound } from "@/lib/http/api-error";
import { dedupKey, isRejection, resolveToken, type TResolvedSymbol } from "@/lib/market/symbols";
import { foldTrades, OversellError, type LotTrade } from "./lots";
import type { TAccount, TAccountCreate, TAccountUpdate, TPosition, TTrade, TTradeCreate, TTradeListQuery } from "./schemas";

export function resolveTradeSymbol(code: string): TResolvedSymbol {
  const resolved = resolveToken(code);
  if (isRejection(resolved)) throw ApiError.of("validation_error", `${code}: ${resolved.reason}`);
  if (resolved.kind === "index") throw ApiError.of("validation_error", `${code} is an index; trades are of stocks`);
  return resolved;
}

function toAccount(row: PortfolioAccount & { _count: { trades: number; positions: number } }): TAccount {
  return {
    id: row.id,
    name: row.name,
    market: row.market,
    currency: row.currency,
    active: row.active,
    trade_count: row._count.trades,
    position_count: row._count.positions,
    created_at: row.createdAt.toISOString(),
  };
}

export function toTrade(row: PortfolioTrade): TTrade {
  return {
    id: row.id,
    account_id: row.accountId,
    side: row.side as TTrade["side"],
    stock_code: row.stockCode,
    market: row.market,
    quantity: row.quantity,
    price: row.price,
    fee: row.fee,
    trade_date: row.tradeDate,
    note: row.note,
    source: row.source,
    created_at: row.createdAt.toISOString(),
  };
}

export function toPosition(row: PortfolioPosition): TPosition {
  return {
    account_id: row.accountId,
    stock_code: row.stockCode,
    market: row.market,
    quantity: row.quantity,
    avg_cost: row.avgCost,
    fifo_cost: row.fifoCost,
    realized_pnl_avg: row.realizedAvg,
    realized_pnl_fifo: row.realizedFifo,
    updated_at: row.updatedAt.toISOString(),
  };
}

const COUNTS = { _count: { select: { trades: true, positions: true } } } as const;

export async function listAccounts(): Promise<{ items: TAccount[] }> {
  const rows = await db().portfolioAccount.findMany({ orderBy: { id: "asc" }, include: COUNTS });
  return { items: rows.map(toAccount) };
}

export async function createAccount(input: TAccountCreate): Promise<TAccount> {
  const row = await db().portfolioAccount.create({
    data: { name: input.name, market: input.market ?? null, currency: input.currency, active: input.active, createdAt: now() },
    include: COUNTS,
  });
  return toAccount(row);
}

export async function getAccountOrThrow(id: number, tx: Tx = db()): Promise<PortfolioAccount> {
  const row = await tx.portfolioAccount.findUnique({ where: { id } });
  if (!row) throw notFound(`Portfolio account ${id} not found`);
  return row;
}

export async function updateAccount(id: number, patch: TAccountUpdate): Promise<TAccount> {
  await getAccountOrThrow(id);
  const row = await db().portfolioAccount.update({
    where: { id },
    data: {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.market !== undefined ? { market: patch.market } : {}),
      ...(patch.currency !== undefined ? { currency: patch.currency } : {}),
      ...(patch.active !== undefined ? { active: patch.active } : {}),
    },
    include: COUNTS,
  });
  return toAccount(row);
}

// Trades and positions go with the account (cascade), in the same statement.
export async function deleteAccount(id: number): Promise<{ deleted: number }> {
  await getAccountOrThrow(id);
  const result = await db().portfolioAccount.deleteMany({ where: { id } });
  return { deleted: result.count };
}

/**
 * Rebuilds the cached positions of one account from all its trades, inside the caller's transaction: a
 * trade write that would sell more than is held at its date fails whole (400), nothing half-written.
 */
export async function recomputePositions(tx: Tx, accountId: number): Promise<void> {
  const trades = await tx.portfolioTrade.findMany({ where: { accountId }, orderBy: [{ tradeDate: "asc" }, { id: "asc" }] });
  const byTarget = new Map<string, PortfolioTrade[]>();
  for (const trade of trades) byTarget.set(trade.targetKey, [...(byTarget.get(trade.targetKey) ?? []), trade]);
  await tx.portfolioPosition.deleteMany({ where: { accountId } });
  const at = now();
  for (const [targetKey, rows] of byTarget) {
    let state;
    try {
      state = foldTrades(rows.map((r) => ({ ...r, side: r.side as LotTrade["side"] })));
    } catch (error) {
      if (error instanceof OversellError) {
        const trade = rows.find((r) => r.id === error.tradeId)!;
        throw ApiError.of("validation_error", `Selling ${error.sold} ${trade.stockCode} on ${trade.tradeDate} exceeds the ${error.held} held then`);
      }
      throw error;
    }
    const last = rows.at(-1)!;
    await tx.portfolioPosition.create({
      data: {
        accountId,
        market: last.market,
        stockCode: last.stockCode,
        targetKey,
        quantity: state.quantity,
        avgCost: state.avgCost,
        fifoCost: state.fifoCost,
        realizedAvg: state.realizedAvg,
        realizedFifo: state.realizedFifo,
        updatedAt: at,
      },
    });
  }
}

export interface NewTrade {
  side: "buy" | "sell";
  symbol: TResolvedSymbol;
  quantity: number;
  price: number;
  fee: number;
  tradeDate: string;
  note: string | null;
  source: string;
}

/** Stores trades of one account and refreshes its positions in one transaction. */
export async function insertTrades(accountId: number, trades: readonly NewTrade[]): Promise<PortfolioTrade[]> {
  return inTransaction(async (tx) => {
    await getAccountOrThrow(accountId, tx);
    const at = now();
    const rows: PortfolioTrade[] = [];
    for (const trade of trades) {
      rows.push(
        await tx.portfolioTrade.create({
          data: {
            accountId,
            side: trade.side,
            stockCode: trade.symbol.displayCode,
            targetKey: dedupKey(trade.symbol),
            market: trade.symbol.market,
            quantity: trade.quantity,
            price: trade.price,
            fee: trade.fee,
            tradeDate: trade.tradeDate,
            note: trade.note,
            source: trade.source,
            createdAt: at,
          },
        }),
      );
    }
    await recomputePositions(tx, accountId);
    return rows;
  });
}

// POST /api/v1/portfolio/trades – one trade
export async function createTrade(input: TTradeCreate): Promise<TTrade> {
  const symbol = resolveTradeSymbol(input.stock_code);
  const [row] = await insertTrades(input.account_id, [
    { side: input.side, symbol, quantity: input.quantity, price: input.price, fee: input.fee, tradeDate: input.trade_date, note: input.note ?? null, source: "manual" },
  ]);
  return toTrade(row!);
}

// DELETE /api/v1/portfolio/trades/{trade_id} – refused (400) when later sells would exceed what remains
export async function deleteTrade(id: number): Promise<{ deleted: number }> {
  return inTransaction(async (tx) => {
    const trade = await tx.portfolioTrade.findUnique({ where: { id } });
    if (!trade) throw notFound(`Trade ${id} not found`);
    await tx.portfolioTrade.delete({ where: { id } });
    await recomputePositions(tx, trade.accountId);
    return { deleted: 1 };
  });
}

export async function listTrades(query: TTradeListQuery): Promise<{ items: TTrade[]; total: number; page: number; page_size: number }> {
  const where = {
    ...(query.account_id !== undefined ? { accountId: query.account_id } : {}),
    ...(query.stock_code !== undefined ? { targetKey: dedupKey(resolveTradeSymbol(query.stock_code)) } : {}),
  };
  const [total, rows] = await Promise.all([
    db().portfolioTrade.count({ where }),
    db().portfolioTrade.findMany({ where, orderBy: [{ tradeDate: "desc" }, { id: "desc" }], skip: (query.page - 1) * query.page_size, take: query.page_size }),
  ]);
  return { items: rows.map(toTrade), total, page: query.page, page_size: query.page_size };
}

// GET /api/v1/portfolio/positions – the cached positions (what decision signals' holding_only reads)
export async function listPositions(accountId?: number): Promise<{ items: TPosition[] }> {
  if (accountId !== undefined) await getAccountOrThrow(accountId);
  const rows = await db().portfolioPosition.findMany({
    where: { ...(accountId !== undefined ? { accountId } : {}), quantity: { gt: 0 } },
    orderBy: [{ accountId: "asc" }, { stockCode: "asc" }],
  });
  return { items: rows.map(toPosition) };
}
