import type { Prisma, PortfolioCashEntry, PortfolioCorporateAction } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db, inTransaction } from "@/lib/db/client";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { dedupKey } from "@/lib/market/symbols";
import { currencyOfMarket } from "./currency";
import {
  ZCashEntryCreate,
  ZCashListQuery,
  ZCorporateActionCreate,
  ZCorporateActionListQuery,
  type TCashEntry,
  type TCashEntryCreate,
  type TCashList,
  type TCashListQuery,
  type TCorporateAction,
  type TCorporateActionCreate,
  type TCorporateActionList,
  type TCorporateActionListQuery,
} from "./event-schemas";
import { dayRange, getAccountOrThrow, recomputePositions, resolveTradeSymbol } from "./store";
import { portfolioWrite } from "./write-guard";

// The cash ledger (docs/api.md §12.1.11) and corporate actions (§12.1.12) of portfolio accounts: stored records that the
// snapshot's cash, positions and P&L replay with the trades. A corporate action changes the cached positions (a split
// changes the shares held), so its writes recompute them in the same transaction, like a trade's.

export function toCashEntry(row: PortfolioCashEntry): TCashEntry {
  return {
    id: row.id,
    account_id: row.accountId,
    event_date: row.eventDate,
    direction: row.direction as TCashEntry["direction"],
    amount: row.amount,
    currency: row.currency,
    note: row.note,
    created_at: row.createdAt.toISOString(),
  };
}

export function toCorporateAction(row: PortfolioCorporateAction): TCorporateAction {
  return {
    id: row.id,
    account_id: row.accountId,
    symbol: row.stockCode,
    market: row.market,
    currency: row.currency,
    effective_date: row.effectiveDate,
    action_type: row.actionType as TCorporateAction["action_type"],
    cash_dividend_per_share: row.cashDividendPerShare,
    split_ratio: row.splitRatio,
    note: row.note,
    created_at: row.createdAt.toISOString(),
  };
}

// POST /api/v1/portfolio/cash-ledger – a deposit or withdrawal
export async function createCashEntry(input: TCashEntryCreate): Promise<TCashEntry> {
  const body = ZCashEntryCreate.parse(input);
  const row = await portfolioWrite(async () => {
    const account = await getAccountOrThrow(body.account_id);
    return db().portfolioCashEntry.create({
      data: {
        accountId: account.id,
        eventDate: body.event_date,
        direction: body.direction,
        amount: body.amount,
        currency: body.currency ?? account.currency,
        note: body.note ?? null,
        createdAt: now(),
      },
    });
  });
  return toCashEntry(row);
}

// GET /api/v1/portfolio/cash-ledger – newest first
export async function listCashEntries(input: TCashListQuery): Promise<TCashList> {
  const query = ZCashListQuery.parse(input);
  const eventDate = dayRange(query.date_from, query.date_to);
  const where: Prisma.PortfolioCashEntryWhereInput = {
    ...(query.account_id !== undefined ? { accountId: query.account_id } : {}),
    ...(query.direction !== undefined ? { direction: query.direction } : {}),
    ...(eventDate ? { eventDate } : {}),
  };
  const [total, rows] = await Promise.all([
    db().portfolioCashEntry.count({ where }),
    db().portfolioCashEntry.findMany({
      where,
      orderBy: [{ eventDate: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.page_size,
      take: query.page_size,
    }),
  ]);
  return { items: rows.map(toCashEntry), total, page: query.page, page_size: query.page_size };
}

// DELETE /api/v1/portfolio/cash-ledger/{entry_id}
export async function deleteCashEntry(id: number): Promise<{ deleted: number }> {
  return portfolioWrite(async () => {
    const result = await db().portfolioCashEntry.deleteMany({ where: { id } });
    if (result.count === 0) throw notFound(`Cash ledger entry not found: ${id}`);
    return { deleted: result.count };
  });
}

// POST /api/v1/portfolio/corporate-actions – a cash dividend or a split of a security in an account
export async function createCorporateAction(input: TCorporateActionCreate): Promise<TCorporateAction> {
  const body = ZCorporateActionCreate.parse(input);
  if (
    body.action_type === "cash_dividend" &&
    (body.cash_dividend_per_share === undefined || body.cash_dividend_per_share === null)
  ) {
    throw ApiError.of("validation_error", "cash_dividend needs cash_dividend_per_share");
  }
  if (body.action_type === "split_adjustment" && !body.split_ratio)
    throw ApiError.of("validation_error", "split_adjustment needs split_ratio > 0");
  const symbol = resolveTradeSymbol(body.symbol, body.market);
  const row = await portfolioWrite(() =>
    inTransaction(async (tx) => {
      await getAccountOrThrow(body.account_id, tx);
      const created = await tx.portfolioCorporateAction.create({
        data: {
          accountId: body.account_id,
          stockCode: symbol.displayCode,
          targetKey: dedupKey(symbol),
          market: symbol.market,
          currency: body.currency ?? currencyOfMarket(symbol.market),
          effectiveDate: body.effective_date,
          actionType: body.action_type,
          cashDividendPerShare: body.action_type === "cash_dividend" ? body.cash_dividend_per_share! : null,
          splitRatio: body.action_type === "split_adjustment" ? body.split_ratio! : null,
          note: body.note ?? null,
          createdAt: now(),
        },
      });
      await recomputePositions(tx, body.account_id);
      return created;
    }),
  );
  return toCorporateAction(row);
}

// GET /api/v1/portfolio/corporate-actions – newest first
export async function listCorporateActions(input: TCorporateActionListQuery): Promise<TCorporateActionList> {
  const query = ZCorporateActionListQuery.parse(input);
  const effectiveDate = dayRange(query.date_from, query.date_to);
  const where: Prisma.PortfolioCorporateActionWhereInput = {
    ...(query.account_id !== undefined ? { accountId: query.account_id } : {}),
    ...(query.symbol !== undefined ? { targetKey: dedupKey(resolveTradeSymbol(query.symbol)) } : {}),
    ...(query.action_type !== undefined ? { actionType: query.action_type } : {}),
    ...(effectiveDate ? { effectiveDate } : {}),
  };
  const [total, rows] = await Promise.all([
    db().portfolioCorporateAction.count({ where }),
    db().portfolioCorporateAction.findMany({
      where,
      orderBy: [{ effectiveDate: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.page_size,
      take: query.page_size,
    }),
  ]);
  return { items: rows.map(toCorporateAction), total, page: query.page, page_size: query.page_size };
}

// DELETE /api/v1/portfolio/corporate-actions/{action_id} – refused (409 portfolio_oversell) when a later sell needed the split
export async function deleteCorporateAction(id: number): Promise<{ deleted: number }> {
  return portfolioWrite(() =>
    inTransaction(async (tx) => {
      const row = await tx.portfolioCorporateAction.findUnique({ where: { id } });
      if (!row) throw notFound(`Corporate action not found: ${id}`);
      await tx.portfolioCorporateAction.delete({ where: { id } });
      await recomputePositions(tx, row.accountId);
      return { deleted: 1 };
    }),
  );
}
