import os from "node:os";
import type { AnalysisPlan } from "@/lib/analysis/request";
import type { TAnalyzeRequest } from "@/lib/analysis/schemas";
import { getSettings } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { dedupKey, type TResolvedSymbol } from "@/lib/market/symbols";
import { taskEventBus } from "./event-bus";
import { wakeTaskWorkers } from "./runtime";
import {
  MARKET_REVIEW_CODE,
  type TBatchTaskAcceptedResponse,
  type TMarketReviewAccepted,
  type TMarketReviewRequest,
  type TReviewRegion,
  type TTaskAccepted,
} from "./schemas";
import { toTaskInfo } from "./serialize";
import { createTask, type CreateOutcome, type NewTask } from "./store";

const BATCH_SOURCES = new Set(["import", "image"]);
// One market review at a time per machine (spec 4.2: the guard is process/machine-local, not shared across
// replicas): the task table's unique active key names this host, so replicas on one host share one review and
// replicas on other hosts run their own even on a shared PostgreSQL.
export const MARKET_REVIEW_KEY = `market_review:${os.hostname()}`;

export type AsyncSubmission =
  | { kind: "single"; body: TTaskAccepted }
  | { kind: "batch"; body: TBatchTaskAcceptedResponse };

/**
 * Creates the task and, when it was created, tells this process's stream and the workers. Another replica may claim
 * the task as soon as it is committed: its events wait (expectCreation) until task_created is out here.
 */
async function createAndAnnounce(task: NewTask): Promise<CreateOutcome> {
  const bus = taskEventBus();
  const release = bus.expectCreation(task.id);
  try {
    const outcome = await createTask(task);
    if (outcome.created) {
      bus.publish({ type: "task_created", task: toTaskInfo(outcome.task) });
      wakeTaskWorkers();
    }
    return outcome;
  } finally {
    release();
  }
}

/** Spec 2.2 retention: stock_name only for a single target; query and source also for import/image batches. */
function retained(request: TAnalyzeRequest, plan: AnalysisPlan) {
  const keepQuery = plan.targets.length === 1 || BATCH_SOURCES.has(request.selection_source ?? "");
  return {
    stockName: plan.single ? (request.stock_name ?? null) : null,
    originalQuery: keepQuery ? (request.original_query ?? null) : null,
    selectionSource: keepQuery ? (request.selection_source ?? null) : null,
  };
}

function analysisTask(target: TResolvedSymbol, request: TAnalyzeRequest, plan: AnalysisPlan, traceId: string): NewTask {
  const kept = retained(request, plan);
  return {
    id: newId(),
    traceId,
    kind: "analysis",
    stockCode: target.displayCode,
    stockName: target.name ?? kept.stockName,
    market: target.market,
    assetType: target.kind,
    activeKey: dedupKey(target),
    request: {
      target,
      reportType: request.report_type,
      language: request.report_language ?? null,
      phase: request.analysis_phase,
      notify: request.notify,
      forceRefresh: request.force_refresh,
      stockName: kept.stockName,
    },
    originalQuery: kept.originalQuery,
    selectionSource: kept.selectionSource,
    reportType: request.report_type,
    analysisPhase: request.analysis_phase,
    skills: request.skills ?? null,
    region: target.market,
    message: "queued",
  };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Spec 4.2 rules 7–9: one task per remaining target; a single duplicate is a 409, batch duplicates never. */
export async function submitAnalysisTasks(
  request: TAnalyzeRequest,
  plan: AnalysisPlan,
  traceId: string,
): Promise<AsyncSubmission> {
  const outcomes: { target: TResolvedSymbol; outcome: CreateOutcome }[] = [];
  for (const target of plan.targets) {
    const outcome = await createAndAnnounce(analysisTask(target, request, plan, traceId));
    outcomes.push({ target, outcome });
  }

  if (plan.single) {
    const { target, outcome } = outcomes[0]!;
    if (!outcome.created) {
      throw ApiError.of(
        "duplicate_task",
        `${target.displayCode} is already being analysed (task ${outcome.existing.id})`,
        {
          stock_code: target.displayCode,
          existing_task_id: outcome.existing.id,
        },
      );
    }
    return {
      kind: "single",
      body: {
        task_id: outcome.task.id,
        trace_id: traceId,
        status: "pending",
        message: `Analysis of ${target.displayCode} queued`,
        analysis_phase: request.analysis_phase,
      },
    };
  }

  const body: TBatchTaskAcceptedResponse = { accepted: [], duplicates: [], message: "" };
  for (const { target, outcome } of outcomes) {
    if (outcome.created) {
      body.accepted.push({
        task_id: outcome.task.id,
        trace_id: traceId,
        stock_code: target.displayCode,
        status: "pending",
        message: `Analysis of ${target.displayCode} queued`,
        analysis_phase: request.analysis_phase,
        asset_type: target.kind,
      });
    } else {
      body.duplicates.push({
        stock_code: target.displayCode,
        existing_task_id: outcome.existing.id,
        message: `${target.displayCode} is already being analysed (task ${outcome.existing.id})`,
      });
    }
  }
  if (plan.rejected.length > 0) {
    body.rejected = plan.rejected.map((r) => ({
      stock_code: r.token,
      message: r.reason,
      token: r.token,
      reason: r.reason,
      reason_code: r.code,
      reason_params: r.params,
    }));
  }
  body.message = `${plural(body.accepted.length, "task")} submitted, ${plural(body.duplicates.length, "duplicate")}, ${plan.rejected.length} rejected`;
  return { kind: "batch", body };
}

// Spec 4.2 market-review; docs/api.md §7 for the request, the stock name and the history row.
export async function submitMarketReview(
  request: TMarketReviewRequest,
  traceId: string,
): Promise<TMarketReviewAccepted> {
  const region: TReviewRegion = request.region ?? getSettings().MARKET_REVIEW_REGION ?? "cn";
  const outcome = await createAndAnnounce({
    id: newId(),
    traceId,
    kind: "market_review",
    stockCode: MARKET_REVIEW_CODE,
    stockName: "大盘复盘",
    market: null,
    assetType: null,
    activeKey: MARKET_REVIEW_KEY,
    request: { region, language: request.report_language ?? null, sendNotification: request.send_notification },
    originalQuery: null,
    selectionSource: null,
    reportType: null,
    analysisPhase: null,
    skills: null,
    region,
    message: "queued",
  });
  if (!outcome.created) {
    throw ApiError.of("duplicate_market_review", `A market review is already running (task ${outcome.existing.id})`, {
      existing_task_id: outcome.existing.id,
    });
  }
  return {
    status: "accepted",
    message: `Market review (${region}) queued`,
    send_notification: request.send_notification,
    region,
    task_id: outcome.task.id,
    trace_id: traceId,
  };
}
