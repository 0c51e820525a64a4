import type { TAnalyzeRequest } from "@/lib/analysis/schemas";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { logger } from "@/lib/log/logger";
import { isTradingDay } from "@/lib/market/calendar";
import { marketDate } from "@/lib/market/market-time";
import { regionsOf } from "@/lib/market-review";
import { resolveTokens, type TMarket } from "@/lib/market/symbols";
import { submitScreenTask } from "@/lib/screening/tasks";
import { runPaperAccounts } from "@/lib/paper/run";
import { submitAnalysisTasks, submitMarketReview } from "@/lib/tasks/submit";
import { claimSlot, finishRun, type RunRow } from "./run-store";
import type { TScheduledRun } from "./schemas";
import { toScheduledRun } from "./serialize";

export type RunSummary = Pick<
  TScheduledRun,
  "message" | "accepted" | "duplicates" | "rejected" | "skipped" | "screening" | "market_review"
>;

// Scheduled reports go out to the configured channels: each on its own with SINGLE_STOCK_NOTIFY, else merged into
// one message when the run's analyses are done (lib/schedule/digest.ts).
function scheduledRequest(): TAnalyzeRequest {
  return {
    report_type: getSettings().REPORT_TYPE,
    force_refresh: false,
    async_mode: true,
    analysis_phase: "auto",
    notify: getSettings().SINGLE_STOCK_NOTIFY,
  };
}

function closedMarkets(at: Date): Set<TMarket> {
  const closed = new Set<TMarket>();
  if (!getSettings().TRADING_DAY_CHECK_ENABLED) return closed;
  for (const market of ["cn", "hk", "us"] as const)
    if (!isTradingDay(market, marketDate(market, at))) closed.add(market);
  return closed;
}

async function queueWatchlist(summary: RunSummary, closed: Set<TMarket>, at: Date, traceId: string): Promise<void> {
  const { targets, rejected } = resolveTokens(getSettings().STOCK_LIST);
  summary.rejected = rejected.map((r) => ({ stock_code: r.token, message: r.reason }));
  const open = targets.filter((target) => {
    if (!closed.has(target.market)) return true;
    summary.skipped.push({
      stock_code: target.displayCode,
      market: target.market,
      reason: `market closed on ${marketDate(target.market, at)} (weekend or exchange holiday)`,
    });
    return false;
  });
  if (open.length === 0) return;
  // single: false — a stock still in flight from an earlier run is a duplicate to report, not an error.
  const submission = await submitAnalysisTasks(
    scheduledRequest(),
    { targets: open, rejected: [], single: false },
    traceId,
  );
  if (submission.kind !== "batch") return;
  summary.accepted = submission.body.accepted.map((a) => ({ task_id: a.task_id, stock_code: a.stock_code }));
  summary.duplicates = submission.body.duplicates.map((d) => ({
    stock_code: d.stock_code,
    existing_task_id: d.existing_task_id,
  }));
}

async function queueReview(summary: RunSummary, closed: Set<TMarket>, traceId: string): Promise<void> {
  const region = getSettings().MARKET_REVIEW_REGION;
  if (!getSettings().MARKET_REVIEW_ENABLED) {
    summary.market_review = {
      outcome: "disabled",
      region: null,
      task_id: null,
      message: "MARKET_REVIEW_ENABLED is off",
    };
    return;
  }
  if (regionsOf(region).every((market) => closed.has(market))) {
    summary.market_review = {
      outcome: "skipped",
      region,
      task_id: null,
      message: `every market of ${region} is closed today`,
    };
    return;
  }
  try {
    const accepted = await submitMarketReview({ region, send_notification: true, report_language: null }, traceId);
    summary.market_review = { outcome: "accepted", region, task_id: accepted.task_id, message: accepted.message };
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "duplicate_market_review") throw error;
    const existing = typeof error.extra.existing_task_id === "string" ? error.extra.existing_task_id : null;
    summary.market_review = { outcome: "duplicate", region, task_id: existing, message: error.message };
  }
}

/** The scheduled screening runs, queued after the watchlist; a strategy that cannot be queued is recorded, not thrown. */
async function queueScreening(summary: RunSummary, closed: Set<TMarket>, traceId: string): Promise<void> {
  const settings = getSettings();
  const market = settings.SCREENING_SCHEDULE_MARKET;
  for (const strategy of settings.SCREENING_SCHEDULE_STRATEGIES) {
    if (closed.has(market)) {
      summary.screening.push({ strategy, market, task_id: null, message: "market closed today" });
      continue;
    }
    try {
      const language = settings.REPORT_LANGUAGE === "en" ? ("en" as const) : ("zh" as const);
      const request = { market, strategy, max_results: 20, language, llm_rank: false };
      const accepted = await submitScreenTask(request, traceId, "schedule");
      summary.screening.push({ strategy, market, task_id: accepted.task_id, message: accepted.message });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      summary.screening.push({ strategy, market, task_id: null, message: error.message });
    }
  }
}

function describe(summary: RunSummary): string {
  const parts = [`${summary.accepted.length} queued`];
  if (summary.duplicates.length > 0) parts.push(`${summary.duplicates.length} already running`);
  if (summary.skipped.length > 0) parts.push(`${summary.skipped.length} skipped (market closed)`);
  if (summary.rejected.length > 0) parts.push(`${summary.rejected.length} rejected`);
  const review =
    summary.market_review.outcome === "accepted"
      ? "market review queued"
      : `market review ${summary.market_review.outcome}`;
  const empty = getSettings().STOCK_LIST.length === 0 ? "STOCK_LIST is empty; " : "";
  const screens = summary.screening.filter((s) => s.task_id !== null).length;
  const screening =
    summary.screening.length > 0 ? `; ${screens} of ${summary.screening.length} screening runs queued` : "";
  return `${empty}${parts.join(", ")}; ${review}${screening}`;
}

/** A merged report is due when analyses were queued and each stock's report is not sent on its own. */
function digestDue(summary: RunSummary): "pending" | null {
  return summary.accepted.length > 0 && !getSettings().SINGLE_STOCK_NOTIFY ? "pending" : null;
}

/**
 * Queues the watchlist and the market review for one run row the caller owns. Each queued task is durable on
 * its own; the run records what was queued. Failures are recorded on the run, never thrown past it.
 */
export async function executeRun(row: RunRow): Promise<TScheduledRun> {
  const at = now();
  const traceId = newId();
  const summary: RunSummary = {
    message: "",
    accepted: [],
    duplicates: [],
    rejected: [],
    skipped: [],
    screening: [],
    market_review: { outcome: "skipped", region: null, task_id: null, message: "not reached" },
  };
  try {
    const closed = closedMarkets(at);
    await queueWatchlist(summary, closed, at, traceId);
    await queueReview(summary, closed, traceId);
    await queueScreening(summary, closed, traceId);
    // Paper accounts walk the sessions closed since their last run; today's calls act at the next open.
    await runPaperAccounts(at);
    summary.message = describe(summary);
    const done = await finishRun(row.id, {
      status: "completed",
      summary,
      error: null,
      traceId,
      digest: digestDue(summary),
    });
    logger.info({ trace_id: traceId, run: row.slotKey, queued: summary.accepted.length }, "watchlist run queued");
    return toScheduledRun(done);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    summary.message = `failed after queueing ${summary.accepted.length}: ${reason}`;
    logger.error({ trace_id: traceId, run: row.slotKey, err: error }, "watchlist run failed");
    // What was queued before the failure still runs; its reports are merged as usual.
    const failed = await finishRun(row.id, {
      status: "failed",
      summary,
      error: reason.slice(0, 500),
      traceId,
      digest: digestDue(summary),
    });
    return toScheduledRun(failed);
  }
}

/** Run-now: a run of its own (never taking a daily slot), executed at once. */
export async function runNow(): Promise<TScheduledRun> {
  const row = await claimSlot(`manual:${newId()}`, "manual");
  if (!row) throw new Error("manual run key collided");
  return executeRun(row);
}
