import type {
  Prisma,
  PortfolioAccount,
  PortfolioCorporateAction,
  PortfolioPosition,
  PortfolioTrade,
} from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db, inTransaction, type Tx } from "@/lib/db/client";
import { lockInTransaction } from "@/lib/db/transaction-lock";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { dedupKey, isRejection, resolveToken, type TResolvedSymbol } from "@/lib/market/symbols";
import { currencyOfMarket, marketOfCurrency } from "./currency";
import { foldTrades, OversellError, type LotAction, type LotTrade } from "./lots";
import type {
  TAccount,
  TAccountCreate,
  TAccountUpdate,
  TPortfolioMarket,
  TPosition,
  TTrade,
  TTradeCreate,
  TTradeListQuery,
} from "./schemas";
import { ZAccountCreate, ZTradeCreate, ZTradeListQuery } from "./schemas";
import { portfolioWrite } from "./write-guard";

/** A stock code for a trade; `market` (when given) must be the code's market, or picks it for a code two markets share. */
export function resolveTradeSymbol(code: string, market?: TPortfolioMarket | null): TResolvedSymbol {
  let resolved = resolveToken(code);
  if (market && !isRejection(resolved) && resolved.kind === "stock" && resolved.market !== market && market !== "cn") {
    const again = resolveToken(`${code.trim()}.${market.toUpperCase()}`);
    if (!isRejection(again)) resolved = again;
  }
  if (isRejection(resolved)) throw ApiError.of("validation_error", `${code}: ${resolved.reason}`);
  if (resolved.kind === "index") throw ApiError.of("validation_error", `${code} is an index; trades are of stocks`);
  if (market && resolved.market !== market)
    throw ApiError.of("validation_error", `${code} is a ${resolved.market} stock, not ${market}`);
  return resolved;
}

type AccountRow = PortfolioAccount & { _count: { trades: number; positions: number } };

/** The account's market on the wire: stored, else the market of its base currency (docs/api.md §12.1.1: never null). */
export function accountMarket(row: Pick<PortfolioAccount, "market" | "currency">): TPortfolioMarket {
  const market = row.market;
  return market === "cn" || market === "hk" || market === "us" ? market : marketOfCurrency(row.currency);
}

function toAccount(row: AccountRow): TAccount {
  return {
    id: row.id,
    name: row.name,
    owner_id: row.ownerId,
    broker: row.broker,
    market: accountMarket(row),
    base_currency: row.currency,
    is_active: row.active,
    created_at: row.createdAt.toISOString(),
    updated_at: (row.updatedAt ?? row.createdAt).toISOString(),
    trade_count: row._count.trades,
    position_count: row._count.positions,
  };
}

export function toTrade(row: PortfolioTrade): TTrade {
  return {
    id: row.id,
    account_id: row.accountId,
    trade_uid: row.tradeUid,
    symbol: row.stockCode,
    market: row.market,
    currency: row.currency,
    trade_date: row.tradeDate,
    side: row.side as TTrade["side"],
    quantity: row.quantity,
    price: row.price,
    fee: row.fee,
    tax: row.tax,
    note: row.note,
    source: row.source,
    created_at: row.createdAt.toISOString(),
  };
}

export function toPosition(row: PortfolioPosition): TPosition {
  return {
    account_id: row.accountId,
    symbol: row.stockCode,
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

// GET /api/v1/portfolio/accounts – active accounts (all with include_inactive)
export async function listAccounts(query: { include_inactive?: boolean } = {}): Promise<{ accounts: TAccount[] }> {
  const rows = await db().portfolioAccount.findMany({
    where: query.include_inactive ? {} : { active: true },
    orderBy: { id: "asc" },
    include: COUNTS,
  });
  return { accounts: rows.map(toAccount) };
}

// POST /api/v1/portfolio/accounts – docs/api.md §12.1.2
export async function createAccount(input: TAccountCreate): Promise<TAccount> {
  const body = ZAccountCreate.parse(input);
  const at = now();
  const row = await portfolioWrite(() =>
    db().portfolioAccount.create({
      data: {
        name: body.name,
        broker: body.broker ?? null,
        ownerId: body.owner_id ?? null,
        market: body.market,
        currency: body.base_currency,
        active: true,
        createdAt: at,
        updatedAt: at,
      },
      include: COUNTS,
    }),
  );
  return toAccount(row);
}

export async function getAccountOrThrow(id: number, tx: Tx = db()): Promise<PortfolioAccount> {
  const row = await tx.portfolioAccount.findUnique({ where: { id } });
  if (!row) throw notFound(`Account not found: ${id}`);
  return row;
}

export async function getAccountView(id: number): Promise<TAccount> {
  const row = await db().portfolioAccount.findUnique({ where: { id }, include: COUNTS });
  if (!row) throw notFound(`Account not found: ${id}`);
  return toAccount(row);
}

// PUT /api/v1/portfolio/accounts/{account_id} – docs/api.md §12.1.3: the fields given change
export async function updateAccount(id: number, patch: TAccountUpdate): Promise<TAccount> {
  await getAccountOrThrow(id);
  const data: Prisma.PortfolioAccountUpdateInput = { updatedAt: now() };
  if (patch.name !== undefined) data.name = patch.name;
  if (patch.broker !== undefined) data.broker = patch.broker;
  if (patch.owner_id !== undefined) data.ownerId = patch.owner_id;
  if (patch.market !== undefined) data.market = patch.market;
  if (patch.base_currency !== undefined) data.currency = patch.base_currency;
  if (patch.is_active !== undefined) data.active = patch.is_active;
  const row = await portfolioWrite(() => db().portfolioAccount.update({ where: { id }, data, include: COUNTS }));
  return toAccount(row);
}

// DELETE /api/v1/portfolio/accounts/{account_id} – docs/api.md §12.1.4: deactivates; trades, cash and positions stay
export async function deactivateAccount(id: number): Promise<{ deleted: number }> {
  await getAccountOrThrow(id);
  await portfolioWrite(() =>
    db().portfolioAccount.update({ where: { id }, data: { active: false, updatedAt: now() } }),
  );
  return { deleted: 1 };
}

export function lotAction(row: PortfolioCorporateAction): LotAction {
  return {
    id: row.id,
    type: row.actionType as LotAction["type"],
    effectiveDate: row.effectiveDate,
    cashDividendPerShare: row.cashDividendPerShare,
    splitRatio: row.splitRatio,
  };
}

function oversell(error: OversellError, rows: readonly PortfolioTrade[]): ApiError {
  const trade = rows.find((r) => r.id === error.tradeId)!;
  return ApiError.of(
    "portfolio_oversell",
    `Selling ${error.sold} ${trade.stockCode} on ${trade.tradeDate} exceeds the ${error.held} held then`,
    {
      symbol: trade.stockCode,
      trade_date: trade.tradeDate,
      trade_id: trade.id,
      held_quantity: error.held,
    },
  );
}

/**
 * Rebuilds the cached positions of one account from all its trades and corporate actions (splits change the shares),
 * inside the caller's transaction: a write that would leave a sell above what is held at its date fails whole (409
 * portfolio_oversell), nothing half-written.
 */
export async function recomputePositions(tx: Tx, accountId: number): Promise<void> {
  // Two writes to one account at once: the second recomputes after the first committed (no double sell).
  await lockInTransaction(tx, `portfolio-account:${accountId}`);
  const [trades, actions] = await Promise.all([
    tx.portfolioTrade.findMany({ where: { accountId }, orderBy: [{ tradeDate: "asc" }, { id: "asc" }] }),
    tx.portfolioCorporateAction.findMany({ where: { accountId } }),
  ]);
  const byTarget = new Map<string, PortfolioTrade[]>();
  for (const trade of trades) byTarget.set(trade.targetKey, [...(byTarget.get(trade.targetKey) ?? []), trade]);
  await tx.portfolioPosition.deleteMany({ where: { accountId } });
  const at = now();
  for (const [targetKey, rows] of byTarget) {
    let state;
    try {
      state = foldTrades(
        rows.map((r) => ({ ...r, side: r.side as LotTrade["side"] })),
        actions.filter((a) => a.targetKey === targetKey).map(lotAction),
      );
    } catch (error) {
      if (error instanceof OversellError) throw oversell(error, rows);
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
  tax: number;
  currency: string | null;
  tradeDate: string;
  note: string | null;
  source: string;
  tradeUid: string | null;
  dedupHash: string | null;
}

/** Stores trades of one account and refreshes its positions in one transaction. */
export async function insertTrades(accountId: number, trades: readonly NewTrade[], tx?: Tx): Promise<PortfolioTrade[]> {
  const work = async (t: Tx) => {
    await getAccountOrThrow(accountId, t);
    const at = now();
    const rows: PortfolioTrade[] = [];
    for (const trade of trades) {
      if (
        trade.tradeUid !== null &&
        (await t.portfolioTrade.findFirst({ where: { accountId, tradeUid: trade.tradeUid }, select: { id: true } }))
      ) {
        throw ApiError.of(
          "conflict",
          `A trade with trade_uid ${trade.tradeUid} is already stored in account ${accountId}`,
        );
      }
      rows.push(
        await t.portfolioTrade.create({
          data: {
            accountId,
            side: trade.side,
            stockCode: trade.symbol.displayCode,
            targetKey: dedupKey(trade.symbol),
            market: trade.symbol.market,
            currency: trade.currency ?? currencyOfMarket(trade.symbol.market),
            quantity: trade.quantity,
            price: trade.price,
            fee: trade.fee,
            tax: trade.tax,
            tradeDate: trade.tradeDate,
            note: trade.note,
            source: trade.source,
            tradeUid: trade.tradeUid,
            dedupHash: trade.dedupHash,
            createdAt: at,
          },
        }),
      );
    }
    await recomputePositions(t, accountId);
    return rows;
  };
  return tx ? work(tx) : portfolioWrite(() => inTransaction(work));
}

// POST /api/v1/portfolio/trades – one trade (docs/api.md §12.1.10)
export async function createTrade(input: TTradeCreate): Promise<TTrade> {
  const body = ZTradeCreate.parse(input);
  const symbol = resolveTradeSymbol(body.symbol, body.market);
  const [row] = await insertTrades(body.account_id, [
    {
      side: body.side,
      symbol,
      quantity: body.quantity,
      price: body.price,
      fee: body.fee,
      tax: body.tax,
      currency: body.currency ?? null,
      tradeDate: body.trade_date,
      note: body.note ?? null,
      source: "manual",
      tradeUid: body.trade_uid ?? null,
      dedupHash: null,
    },
  ]);
  return toTrade(row!);
}

// DELETE /api/v1/portfolio/trades/{trade_id} – refused (409 portfolio_oversell) when later sells would exceed what remains
export async function deleteTrade(id: number): Promise<{ deleted: number }> {
  return portfolioWrite(() =>
    inTransaction(async (tx) => {
      const trade = await tx.portfolioTrade.findUnique({ where: { id } });
      if (!trade) throw notFound(`Trade not found: ${id}`);
      await tx.portfolioTrade.delete({ where: { id } });
      await recomputePositions(tx, trade.accountId);
      return { deleted: 1 };
    }),
  );
}

/** The where clause of a date range over a YYYY-MM-DD column; date_from after date_to is a 400. */
export function dayRange(from: string | undefined, to: string | undefined): { gte?: string; lte?: string } | undefined {
  if (from === undefined && to === undefined) return undefined;
  if (from !== undefined && to !== undefined && from > to)
    throw ApiError.of("validation_error", "date_from is after date_to");
  return { ...(from !== undefined ? { gte: from } : {}), ...(to !== undefined ? { lte: to } : {}) };
}

// GET /api/v1/portfolio/trades – newest first, filtered (docs/api.md §12.1.10)
export async function listTrades(
  input: TTradeListQuery,
): Promise<{ items: TTrade[]; total: number; page: number; page_size: number }> {
  const query = ZTradeListQuery.parse(input);
  const tradeDate = dayRange(query.date_from, query.date_to);
  const where: Prisma.PortfolioTradeWhereInput = {
    ...(query.account_id !== undefined ? { accountId: query.account_id } : {}),
    ...(query.symbol !== undefined ? { targetKey: dedupKey(resolveTradeSymbol(query.symbol)) } : {}),
    ...(query.side !== undefined ? { side: query.side } : {}),
    ...(tradeDate ? { tradeDate } : {}),
  };
  const [total, rows] = await Promise.all([
    db().portfolioTrade.count({ where }),
    db().portfolioTrade.findMany({
      where,
      orderBy: [{ tradeDate: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.page_size,
      take: query.page_size,
    }),
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
