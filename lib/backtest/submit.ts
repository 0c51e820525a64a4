import { RULE_ENGINE_VERSION } from "@/lib/analysis/engine";
import { resolveSingleTarget } from "@/lib/analysis/request";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { dedupKey } from "@/lib/market/symbols";
import { taskEventBus } from "@/lib/tasks/event-bus";
import { wakeTaskWorkers } from "@/lib/tasks/runtime";
import { toTaskInfo } from "@/lib/tasks/serialize";
import { createTask } from "@/lib/tasks/store";
import type { TBacktestAccepted, TBacktestRequest } from "./schemas";

/**
 * POST /backtests: resolves the target like analyze (400 when it cannot), stores the run, then queues its
 * task on the durable queue (kind "backtest", same id) so it survives restarts like an analysis does.
 * Several runs of one stock may coexist (other dates, steps or engine versions): no dedup key is shared.
 */
export async function submitBacktest(request: TBacktestRequest, traceId: string): Promise<TBacktestAccepted> {
  const target = resolveSingleTarget(request.stock_code);
  const id = newId();
  await db().backtestRun.create({
    data: {
      id,
      traceId,
      stockCode: target.displayCode,
      stockName: target.name ?? null,
      market: target.market,
      targetKey: dedupKey(target),
      target: JSON.stringify(target),
      status: "pending",
      engineVersion: RULE_ENGINE_VERSION,
      requestedStart: request.start_date ?? null,
      requestedEnd: request.end_date ?? null,
      horizons: JSON.stringify([...request.horizons].sort((a, b) => a - b)),
      step: request.step,
      neutralBandPct: request.neutral_band_pct,
      createdAt: now(),
    },
  });
  try {
    const outcome = await createTask({
      id,
      traceId,
      kind: "backtest",
      stockCode: target.displayCode,
      stockName: target.name ?? null,
      market: target.market,
      assetType: target.kind,
      activeKey: `backtest:${id}`,
      request: {},
      originalQuery: null,
      selectionSource: null,
      reportType: null,
      analysisPhase: null,
      skills: null,
      region: target.market,
      message: "backtest queued",
    });
    if (outcome.created) taskEventBus().publish({ type: "task_created", task: toTaskInfo(outcome.task) });
  } catch (error) {
    // A run without its task would stay pending for ever: take it back.
    await db().backtestRun.delete({ where: { id } }).catch(() => undefined);
    throw error;
  }
  wakeTaskWorkers();
  return { backtest_id: id, status: "pending", message: "Backtest queued" };
}
