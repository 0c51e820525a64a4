import { randomUUID } from "node:crypto";
import pLimit from "p-limit";
import { failureReason } from "@/lib/analysis/failure-reason";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { getDailyBars, type TDailyBar } from "@/lib/market";
import { BENCHMARK_INDEX, benchmarkBars } from "@/lib/market/benchmark";
import { lastClosedTradingDay } from "@/lib/market/market-time";
import { logger } from "@/lib/log/logger";
import { applyStrategy, type Screened } from "./evaluate";
import { rankWithModel, type RankPatch } from "./llm-rank";
import { computeMetrics, METRIC_BARS } from "./metrics";
import { type TScreenRequest, type TScreenResponse, type TSourceError } from "./schemas";
import { assertScreeningEnabled } from "./status";
import { findStrategy } from "./saved-strategies";
import { findStoredRun } from "./stored-run";
import type { TStrategy } from "./strategy-schema";
import { screeningUniverse, type UniverseMember } from "./universe";

// One screening run: list the market's universe, read each member's daily bars through the bar cache (a few at a
// time), compute the figures, apply the strategy and store the answer under its run_id. A member whose bars cannot
// be read is left out and named in source_errors; the run's quality says how much of the universe it saw.

/** Bars read at once: the exchange providers rate-limit, and the local sources gain nothing from more. */
const BAR_READS_AT_ONCE = 4;
const SOURCE_ERROR_SAMPLES = 20;
const SPARKLINE_CLOSES = 30;
/** The benchmark a relative-strength figure is measured against, per market: the broad index traders quote. */

const WORDS = {
  zh: {
    unlisted: (names: string) => `${names} 不提供全市场列表：本次只筛选样例目录与 CSV 文件夹中的股票`,
    listed: (rows: number, total: number, source: string) =>
      `股票池为 ${source} 列表中成交额最大的 ${rows} 只（全市场 ${total} 只）`,
    fallback: (hours: number) => `市场列表读取失败，使用 ${hours} 小时前保存的列表`,
    empty: "没有可筛选的股票：数据源没有列出这个市场的任何股票",
    failed: (n: number, total: number) => `${total} 只股票中有 ${n} 只读取日线失败，未参与筛选`,
    sample: "包含样例数据（非真实行情）",
    benchmark: (code: string) => `基准指数 ${code} 的日线读取失败：相对强弱无法计算`,
  },
  en: {
    unlisted: (names: string) =>
      `${names} serve no market list: this run screens the sample catalogue and the CSV folder only`,
    listed: (rows: number, total: number, source: string) =>
      `The universe is the ${rows} most-traded stocks of ${source}'s list (${total} in the market)`,
    fallback: (hours: number) => `The market list could not be read: the list kept ${hours} hours ago was used`,
    empty: "Nothing to screen: no source listed any stock of this market",
    failed: (n: number, total: number) => `Daily bars of ${n} of ${total} stocks could not be read; they were left out`,
    sample: "Includes sample data (not real market prices)",
    benchmark: (code: string) => `Daily bars of the benchmark ${code} could not be read: relative strength is unknown`,
  },
} as const;

export function strategyNotFound(id: string): ApiError {
  return ApiError.of("not_found", `No screening strategy has id ${id}`, {
    reason_code: "strategy_not_found",
    reason_params: { strategy: id },
  });
}

async function strategyFor(request: TScreenRequest): Promise<TStrategy> {
  const strategy = await findStrategy(request.strategy);
  if (!strategy) throw strategyNotFound(request.strategy);
  if (!strategy.markets.includes(request.market))
    throw ApiError.of("validation_error", `Strategy ${strategy.id} does not screen market ${request.market}`);
  return strategy;
}

type Read = { ok: true; screened: Screened } | { ok: false; error: TSourceError };

async function readMember(member: UniverseMember, benchmark: TDailyBar[] | null, language: "zh" | "en"): Promise<Read> {
  const { symbol } = member;
  try {
    const result = await getDailyBars(symbol, METRIC_BARS);
    const last = result.bars.at(-1)!;
    const name = language === "en" ? (symbol.nameEn ?? symbol.name ?? null) : (symbol.name ?? symbol.nameEn ?? null);
    return {
      ok: true,
      screened: {
        code: symbol.displayCode,
        name,
        market: symbol.market,
        metrics: computeMetrics(result.bars, benchmark),
        lastBarDate: last.date,
        barsSource: result.source,
        stale: last.date < lastClosedTradingDay(symbol.market, now()),
        closes: result.bars.slice(-SPARKLINE_CLOSES).map((b) => b.close),
      },
    };
  } catch (error) {
    const reason = failureReason(error, symbol);
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { source: member.listed_from, code: reason.code, message: message.slice(0, 300) } };
  }
}

export interface RunOptions {
  /** The run's id (a queued run's task id); a run already stored under it is answered as stored. */
  runId?: string;
  onProgress?: (progress: number, message: string) => void;
  signal?: AbortSignal;
}

export async function runScreen(request: TScreenRequest, options: RunOptions = {}): Promise<TScreenResponse> {
  // A queued run taken up again after a restart that came after its answer was stored: done once, not twice.
  const done = options.runId ? await findStoredRun(options.runId) : null;
  if (done) return done;
  assertScreeningEnabled();
  const strategy = await strategyFor(request);
  const progress = options.onProgress ?? (() => undefined);
  progress(5, "listing the universe");
  const words = WORDS[request.language];
  const universe = await screeningUniverse(request.market);
  const needsBenchmark = [...strategy.filters.map((f) => f.metric), strategy.rank.metric].includes(
    "excess_ret_60d_pct",
  );
  const benchmark = needsBenchmark ? await benchmarkBars(request.market, METRIC_BARS) : null;
  const limit = pLimit(BAR_READS_AT_ONCE);
  const total = universe.members.length;
  let readCount = 0;
  progress(10, `reading the bars of ${total} stocks`);
  const reads = await Promise.all(
    universe.members.map((m) =>
      limit(async () => {
        options.signal?.throwIfAborted();
        const read = await readMember(m, benchmark, request.language);
        readCount += 1;
        progress(10 + Math.floor((85 * readCount) / total), `bars ${readCount}/${total}`);
        return read;
      }),
    ),
  );
  const screened = reads.flatMap((r) => (r.ok ? [r.screened] : []));
  const errors = [...universe.errors, ...reads.flatMap((r) => (r.ok ? [] : [r.error]))];
  const failedReads = errors.length - universe.errors.length;
  const list = universe.list;
  const { afterFilter, candidates } = applyStrategy(strategy, screened, request.max_results, request.language);

  const warnings: string[] = [];
  const reasons: string[] = [];
  if (!list && universe.unlisted.length > 0) warnings.push(words.unlisted(universe.unlisted.join(", ")));
  if (list) warnings.push(words.listed(list.rows.length, list.total, list.source));
  if (list?.fallback) reasons.push(words.fallback(list.ageHours ?? 0));
  if (total === 0) reasons.push(words.empty);
  if (failedReads > 0) reasons.push(words.failed(failedReads, total));
  if (needsBenchmark && benchmark === null) reasons.push(words.benchmark(BENCHMARK_INDEX[request.market]));
  const isSample = screened.some((s) => s.barsSource === "sample");
  if (isSample) warnings.push(words.sample);
  const qualityScore = total === 0 ? 0 : Math.round((screened.length / total) * 100);
  const qualityStatus =
    screened.length === 0 || (needsBenchmark && benchmark === null)
      ? "insufficient"
      : errors.length > 0 || isSample || list?.fallback
        ? "degraded"
        : "verified";

  let ranked: RankPatch | null = null;
  if (request.llm_rank && candidates.length > 0) {
    progress(96, "asking the model to re-rank");
    ranked = await rankWithModel(strategy, candidates, request.language, isSample, { signal: options.signal });
  }

  const createdAt = now();
  const answer: TScreenResponse = {
    run_id: options.runId ?? randomUUID(),
    strategy: strategy.id,
    market: request.market,
    created_at: createdAt.toISOString(),
    candidates,
    candidate_count: candidates.length,
    snapshot_source: universe.sources.join("+") || "none",
    snapshot_count: total,
    bars_loaded_count: screened.length,
    after_filter_count: afterFilter,
    ranking_mode: "factor",
    warnings: [...warnings, ...reasons],
    source_errors: errors.slice(0, SOURCE_ERROR_SAMPLES).map((e) => `${e.source}: ${e.message}`),
    source_error_details: errors.slice(0, SOURCE_ERROR_SAMPLES),
    quality_status: qualityStatus,
    quality_score: qualityScore,
    quality_reasons: reasons,
    is_sample_data: isSample,
    llm_ranked: false,
    llm_market_view: null,
    llm_selection_logic: null,
    llm_portfolio_risk: null,
    llm_model_used: null,
    llm_failure_reason: null,
    ...ranked,
    snapshot_fallback_used: list?.fallback ?? false,
    snapshot_stale_age_hours: list?.fallback ? list.ageHours : null,
    dsa_enrichment: { enabled: false, max_candidates: 0, requested_count: 0, enriched_count: 0, warnings: [] },
    deep_analysis_requested: false,
    daily_enriched: true,
    risk_enabled: false,
  };
  await db().screeningRun.create({
    data: {
      runId: answer.run_id,
      strategy: answer.strategy,
      market: answer.market,
      snapshotSource: answer.snapshot_source,
      snapshotCount: answer.snapshot_count,
      afterFilterCount: answer.after_filter_count,
      candidateCount: answer.candidate_count,
      qualityStatus: answer.quality_status,
      result: JSON.stringify(answer),
      createdAt,
    },
  });
  logger.info(
    {
      run_id: answer.run_id,
      strategy: strategy.id,
      market: request.market,
      universe: total,
      candidates: candidates.length,
    },
    "screening run stored",
  );
  return answer;
}
