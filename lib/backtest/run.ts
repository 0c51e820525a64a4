import { Prisma } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { getDailyBars, MAX_DAILY_BARS } from "@/lib/market";
import { ZResolvedSymbol } from "@/lib/market/symbols";
import { backtestBars } from "./backtest-bars";
import { MIN_BARS_FOR_SCORE } from "./replay";
import { seriesPoints } from "./summary";

// One queued backtest, run by a task worker (kind "backtest"). Idempotent: a run re-queued after a restart
// starts again from its request and replaces whatever calls an interrupted attempt left.

export interface BacktestRunContext {
  signal: AbortSignal;
  onProgress: (progress: number, message: string) => void;
  /** Turns an error into the sanitised text stored with a failed run. */
  failureText: (error: unknown) => string;
}

const INSERT_CHUNK = 500;
// Progress bands: reading bars, replaying (the long part), storing.
const REPLAY_FROM = 10;
const REPLAY_TO = 90;

export class BacktestFailedError extends Error {
  override name = "BacktestFailedError";
}

function isMissingRow(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025";
}

export async function runBacktestTask(
  id: string,
  context: BacktestRunContext,
): Promise<{ stockName: string | null; message: string }> {
  const row = await db().backtestRun.findUnique({ where: { id } });
  if (!row) return { stockName: null, message: "backtest deleted before it ran" };
  try {
    return await execute(row, context);
  } catch (error) {
    if (context.signal.aborted) throw error; // stopping: the queue re-queues the task, the run stays running
    if (isMissingRow(error)) return { stockName: row.stockName, message: "backtest deleted while it ran" };
    await db()
      .backtestRun.update({
        where: { id },
        data: { status: "failed", error: context.failureText(error), completedAt: now() },
      })
      .catch(() => undefined);
    throw error;
  }
}

async function execute(
  row: NonNullable<Awaited<ReturnType<ReturnType<typeof db>["backtestRun"]["findUnique"]>>>,
  context: BacktestRunContext,
) {
  const { id } = row;
  const target = ZResolvedSymbol.parse(JSON.parse(row.target));
  const horizons = (JSON.parse(row.horizons) as number[]).filter(Number.isInteger);
  let lastPct = -1;
  const progress = (pct: number, message: string) => {
    const rounded = Math.round(pct);
    context.onProgress(rounded, message);
    if (rounded === lastPct) return;
    lastPct = rounded;
    void db()
      .backtestRun.updateMany({ where: { id, status: "running" }, data: { progress: rounded } })
      .catch(() => undefined);
  };

  await db().backtestRun.update({
    where: { id },
    data: { status: "running", progress: 1, error: null, startedAt: now(), completedAt: null },
  });
  progress(2, "reading daily bars");
  const read = await getDailyBars(target, MAX_DAILY_BARS);
  const bars = read.bars;
  if (bars.length < MIN_BARS_FOR_SCORE) {
    throw new BacktestFailedError(
      `Only ${bars.length} daily bars of ${row.stockCode}: a call needs at least ${MIN_BARS_FOR_SCORE}`,
    );
  }
  const isSample = read.source === "sample" || bars.some((b) => b.source === "sample");
  await db().backtestRun.update({ where: { id }, data: { dataSource: read.source, lastBarDate: bars.at(-1)!.date } });

  progress(REPLAY_FROM, `replaying the rules over ${bars.length} bars`);
  const result = await backtestBars(bars, {
    market: target.market,
    isSample,
    startDate: row.requestedStart,
    endDate: row.requestedEnd,
    step: row.step,
    horizons,
    neutralBandPct: row.neutralBandPct,
    signal: context.signal,
    onProgress: (done) => progress(REPLAY_FROM + done * (REPLAY_TO - REPLAY_FROM), "replaying the rules"),
  });
  if (result.calls.length === 0) {
    throw new BacktestFailedError(
      `No trading day between ${row.requestedStart ?? bars[0]!.date} and ${row.requestedEnd ?? bars.at(-1)!.date} has ${MIN_BARS_FOR_SCORE} bars of history ` +
        `(bars run from ${bars[0]!.date} to ${bars.at(-1)!.date})`,
    );
  }

  progress(REPLAY_TO + 2, "storing the calls");
  const calls = result.calls.map((c, seq) => ({
    backtestId: id,
    seq,
    date: c.date,
    close: c.close,
    action: c.action,
    score: c.score,
    idealBuy: c.ideal_buy,
    stopLoss: c.stop_loss,
    takeProfit: c.take_profit,
    outcomes: JSON.stringify(c.outcomes),
  }));
  // One transaction: a reader sees the old attempt's state or the finished run, never half the calls.
  // One transaction: a reader sees the old attempt's state or the finished run, never half the calls. The
  // run is updated first so a run deleted meanwhile ends it (P2025) before any call is written.
  await db().$transaction(async (tx) => {
    await tx.backtestRun.update({
      where: { id },
      data: {
        status: "completed",
        progress: 100,
        callsTotal: calls.length,
        startDate: result.calls[0]!.date,
        endDate: result.calls.at(-1)!.date,
        summary: JSON.stringify(result.summary),
        series: JSON.stringify(seriesPoints(result.curve, bars)),
        completedAt: now(),
      },
    });
    await tx.backtestCall.deleteMany({ where: { backtestId: id } });
    for (let i = 0; i < calls.length; i += INSERT_CHUNK)
      await tx.backtestCall.createMany({ data: calls.slice(i, i + INSERT_CHUNK) });
  });
  return { stockName: row.stockName, message: `backtest completed: ${calls.length} calls` };
}
