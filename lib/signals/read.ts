import type { Prisma } from "@/generated/prisma/client";
import { db, type Tx } from "@/lib/db/client";
import { startOfDay, startOfNextDay } from "@/lib/history/dates";
import { ApiError } from "@/lib/errors/api-error";
import { isRejection, resolveToken, dedupKey, type TMarket } from "@/lib/market/symbols";
import { signalNow } from "./clock";
import type { TDecisionSignalItem, TDecisionSignalListQuery, TDecisionSignalListResponse } from "./schemas";
import { toSignalItem } from "./serialize";
import { expireOverdue, getSignalRowOrThrow } from "./store";
import { signalTarget } from "./target";

const NEWEST_FIRST: Prisma.DecisionSignalOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "desc" }];

/** Target keys a code selects: every variant (600519, 600519.SH, sh600519) is one stock; with a market, in that market. */
export function stockTargetKeys(rawCode: string, market?: TMarket): string[] {
  const code = rawCode.trim();
  if (market) return [signalTarget(code, market).targetKey];
  const resolved = resolveToken(code);
  const keys = new Set<string>();
  if (!isRejection(resolved)) keys.add(dedupKey(resolved));
  for (const m of ["cn", "hk", "us"] as const) keys.add(`stock:${m}:${code.toUpperCase()}`);
  return [...keys];
}

export function stockFilter(rawCode: string, market?: TMarket): Prisma.DecisionSignalWhereInput {
  return { targetKey: { in: stockTargetKeys(rawCode, market) } };
}

type Bound = { at: Date; day: boolean };

function parseBound(value: string | undefined): Bound | null {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return { at: startOfDay(value), day: true };
  return { at: new Date(value), day: false };
}

/** Inclusive bounds: a date-time is used as given; a "to" day includes that whole day (service time zone). */
function range(
  from: string | undefined,
  to: string | undefined,
  field: string,
): Prisma.DateTimeNullableFilter | undefined {
  const lower = parseBound(from);
  const upper = parseBound(to);
  if (!lower && !upper) return undefined;
  const filter: { gte?: Date; lt?: Date; lte?: Date } = {};
  if (lower) filter.gte = lower.at;
  if (upper) {
    if (upper.day) filter.lt = startOfNextDay(to!);
    else filter.lte = upper.at;
  }
  const end = filter.lt ? filter.lt.getTime() - 1 : filter.lte?.getTime();
  if (filter.gte && end !== undefined && filter.gte.getTime() > end) {
    throw ApiError.of("validation_error", `${field}: the lower bound is after the upper bound`);
  }
  return filter;
}

/** Spec 4.5 rule 2: stocks held in active accounts, from the cached positions only (never recomputed). */
async function heldTargetKeys(tx: Tx, accountId?: number): Promise<string[]> {
  const rows = await tx.portfolioPosition.findMany({
    where: { quantity: { gt: 0 }, account: { active: true, ...(accountId !== undefined ? { id: accountId } : {}) } },
    select: { targetKey: true },
    distinct: ["targetKey"],
  });
  return rows.map((r) => r.targetKey);
}

async function listWhere(tx: Tx, query: TDecisionSignalListQuery): Promise<Prisma.DecisionSignalWhereInput> {
  const and: Prisma.DecisionSignalWhereInput[] = [];
  if (query.market) and.push({ market: query.market });
  if (query.stock_code) and.push(stockFilter(query.stock_code, query.market));
  if (query.action) and.push({ action: query.action });
  if (query.market_phase) and.push({ marketPhase: query.market_phase });
  if (query.source_type) and.push({ sourceType: query.source_type });
  if (query.source_report_id !== undefined) and.push({ sourceReportId: query.source_report_id });
  if (query.trace_id) and.push({ traceId: query.trace_id });
  if (query.trigger_source) and.push({ triggerSource: query.trigger_source });
  if (query.decision_profile)
    and.push({ decisionProfile: query.decision_profile === "unknown" ? null : query.decision_profile });
  if (query.status) and.push({ status: query.status });
  const created = range(query.created_from, query.created_to, "created_from/created_to");
  if (created) and.push({ createdAt: created as Prisma.DateTimeFilter });
  const expires = range(query.expires_from, query.expires_to, "expires_from/expires_to");
  if (expires) and.push({ expiresAt: expires });
  // account_id narrows holding_only; without holding_only it has nothing to narrow (spec 4.5: "used with holding_only").
  if (query.holding_only) and.push({ targetKey: { in: await heldTargetKeys(tx, query.account_id) } });
  return { AND: and };
}

// GET /api/v1/decision-signals – filtered list, newest first, after lazy expiry (one transaction)
export async function listSignals(query: TDecisionSignalListQuery): Promise<TDecisionSignalListResponse> {
  return db().$transaction(async (tx) => {
    await expireOverdue(tx, signalNow());
    const where = await listWhere(tx, query);
    const [total, rows] = await Promise.all([
      tx.decisionSignal.count({ where }),
      tx.decisionSignal.findMany({
        where,
        orderBy: NEWEST_FIRST,
        skip: (query.page - 1) * query.page_size,
        take: query.page_size,
      }),
    ]);
    return { items: rows.map(toSignalItem), total, page: query.page, page_size: query.page_size };
  });
}

// GET /api/v1/decision-signals/latest/{stock_code} – the stock's newest active signals
export async function latestSignals(
  stockCode: string,
  market: TMarket | undefined,
  limit: number,
): Promise<TDecisionSignalListResponse> {
  return db().$transaction(async (tx) => {
    await expireOverdue(tx, signalNow());
    const where: Prisma.DecisionSignalWhereInput = {
      AND: [stockFilter(stockCode, market), { status: "active" }, market ? { market } : {}],
    };
    const [total, rows] = await Promise.all([
      tx.decisionSignal.count({ where }),
      tx.decisionSignal.findMany({ where, orderBy: NEWEST_FIRST, take: limit }),
    ]);
    return { items: rows.map(toSignalItem), total, page: 1, page_size: limit };
  });
}

// GET /api/v1/decision-signals/{signal_id} – one signal after lazy expiry; 404 when unknown
export async function getSignal(id: number): Promise<TDecisionSignalItem> {
  return db().$transaction(async (tx) => {
    await expireOverdue(tx, signalNow());
    return toSignalItem(await getSignalRowOrThrow(tx, id));
  });
}
