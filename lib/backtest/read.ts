import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { dedupKey, isRejection, resolveToken } from "@/lib/market/symbols";
import { ZDecisionAction } from "@/lib/analysis/engine/schemas";
import {
  ZSeriesPoint,
  type TBacktestCall,
  type TBacktestRun,
  type TCallsPage,
  type TRunsPage,
  type TSeriesResponse,
} from "./schemas";
import { toCall, toRun, toRunItem } from "./serialize";

// Reads and deletes of backtest runs (docs/api.md §11). Unknown ids are 404 not_found.

async function findRunOrThrow(id: string) {
  const row = await db().backtestRun.findUnique({ where: { id } });
  if (!row) throw notFound(`No backtest has id ${id}`);
  return row;
}

export async function getBacktestOrThrow(id: string): Promise<TBacktestRun> {
  return toRun(await findRunOrThrow(id));
}

/** Any code form of one stock selects its runs (600519, 600519.SH, sh600519); an unresolvable text matches as typed. */
function stockFilter(stockCode: string | undefined): Prisma.BacktestRunWhereInput {
  if (!stockCode) return {};
  const resolved = resolveToken(stockCode);
  return isRejection(resolved) ? { stockCode: stockCode.toUpperCase() } : { targetKey: dedupKey(resolved) };
}

export async function listBacktests(query: {
  stock_code?: string;
  page: number;
  page_size: number;
}): Promise<TRunsPage> {
  const where = stockFilter(query.stock_code);
  // The list never carries the summary or series: select the light columns only.
  const [total, rows] = await Promise.all([
    db().backtestRun.count({ where }),
    db().backtestRun.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.page_size,
      take: query.page_size,
      omit: { summary: true, series: true, target: true },
    }),
  ]);
  return {
    items: rows.map((r) => toRunItem({ ...r, summary: null, series: null, target: "" })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

export async function listBacktestCalls(id: string, query: { page: number; page_size: number }): Promise<TCallsPage> {
  const run = await db().backtestRun.findUnique({ where: { id }, select: { callsTotal: true } });
  if (!run) throw notFound(`No backtest has id ${id}`);
  const rows = await db().backtestCall.findMany({
    where: { backtestId: id },
    orderBy: { seq: "asc" },
    skip: (query.page - 1) * query.page_size,
    take: query.page_size,
  });
  return { items: rows.map(toCall), total: run.callsTotal, page: query.page, page_size: query.page_size };
}

export async function getBacktestSeries(id: string): Promise<TSeriesResponse> {
  const run = await db().backtestRun.findUnique({ where: { id }, select: { series: true } });
  if (!run) throw notFound(`No backtest has id ${id}`);
  return { items: run.series ? ZSeriesPoint.array().parse(JSON.parse(run.series)) : [] };
}

/** The run, its calls (cascade) and its task if it has not started; a running task finds its run gone and stops. */
export async function deleteBacktest(id: string): Promise<{ deleted: number }> {
  await findRunOrThrow(id);
  const deleted = await db().$transaction(async (tx) => {
    await tx.backtestCall.deleteMany({ where: { backtestId: id } });
    const result = await tx.backtestRun.deleteMany({ where: { id } });
    await tx.analysisTask.deleteMany({ where: { id, kind: "backtest", status: "pending" } });
    return result.count;
  });
  if (deleted === 0) throw notFound(`No backtest has id ${id}`);
  return { deleted };
}

/** Every call's date and action, oldest first: the markers of the page's price chart. */
export async function listCallActions(id: string): Promise<Pick<TBacktestCall, "date" | "action">[]> {
  const rows = await db().backtestCall.findMany({
    where: { backtestId: id },
    orderBy: { seq: "asc" },
    select: { date: true, action: true },
  });
  return rows.map((r) => ({ date: r.date, action: ZDecisionAction.parse(r.action) }));
}
