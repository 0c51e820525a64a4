import { RULE_ENGINE_VERSION } from "@/lib/analysis/engine";
import { resolveSingleTarget } from "@/lib/analysis/request";
import { now } from "@/lib/clock";
import { inTransaction } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { dedupKey } from "@/lib/market/symbols";
import { taskEventBus } from "@/lib/tasks/event-bus";
import { wakeTaskWorkers } from "@/lib/tasks/runtime";
import { toTaskInfo } from "@/lib/tasks/serialize";
import { insertTask } from "@/lib/tasks/store";
import type { TBacktestAccepted, TBacktestRequest } from "./schemas";

/**
 * POST /backtests: resolves the target like analyze (400 when it cannot), stores the run, then queues its
 * task on the durable queue (kind "backtest", same id) so it survives restarts like an analysis does.
 * Several runs of one stock may coexist (other dates, steps or engine versions): no dedup key is shared.
 */
export async function submitBacktest(request: TBacktestRequest, traceId: string): Promise<TBacktestAccepted> {
  const target = resolveSingleTarget(request.stock_code);
  const id = newId();
  // The run and its task land together or not at all: a run without its task would stay pending for ever.
  const task = await inTransaction(async (tx) => {
    await tx.backtestRun.create({
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
    // Its own active key (backtest:<id>): no other task can hold it, so no de-duplication to try.
    return insertTask(tx, {
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
  });
  taskEventBus().publish({ type: "task_created", task: toTaskInfo(task) });
  wakeTaskWorkers();
  return { backtest_id: id, status: "pending", message: "Backtest queued" };
}
