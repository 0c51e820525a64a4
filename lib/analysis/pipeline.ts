import type { AnalysisHistory } from "@/generated/prisma/client";
import { MAX_SKILLS_PER_TURN } from "@/lib/agent/schemas";
import { resolveSkills, type LoadedSkill } from "@/lib/agent/skills";
import { getSettings } from "@/lib/settings/settings";
import { createAnalysisRecord, type NewsEvidence } from "@/lib/history/repository";
import { toAnalysisReport } from "@/lib/history/report";
import {
  NOT_GATHERED_DETAILS,
  type TAnalysisReport,
  type TReportDetails,
  type TReportStrategy,
  type TReportSummary,
} from "@/lib/history/schemas";
import { getDailyBars, getQuote, InvalidDataFileError, onePriceOf, type TDailyBar, type TQuote } from "@/lib/market";
import { dedupKey, type TResolvedSymbol } from "@/lib/market/symbols";
import { searchStockNews, type NewsSearchResult } from "@/lib/news";
import { createSignalFromAnalysis } from "@/lib/signals/from-analysis";
import {
  actionLabel,
  ANALYSIS_WINDOW_BARS,
  buildRuleReport,
  levelText,
  mergeQuoteBars,
  planProblem,
  RULE_ENGINE_VERSION,
  structurePlan,
  classifyDecisionAction,
  normalizeReportLanguage,
  SAMPLE_DATA_NOTICE,
  sentimentLabel,
} from "./engine";
import type { MergedSeries, TDecisionAction, TRuleReport } from "./engine";
import { generateLlmReport, type LlmReportResult } from "./llm/generate-report";
import { llmConfigured } from "./llm/channels";
import type { TLlmReport } from "./llm/report-schema";
import { RunRecorder } from "./run-recorder";
import type { TRunDiagnosticSummary } from "./run-schemas";
import { sanitizeValue } from "@/lib/log/sanitize";
import { now } from "@/lib/clock";
import { marketDate } from "@/lib/market/market-time";
import { failureReason, type FailureReason } from "./failure-reason";
import { assessDataQuality } from "@/lib/evidence/data-quality";
import type { TDataQuality, TEvidence } from "@/lib/evidence/schemas";
import { reportEvidence, stockRecord } from "@/lib/evidence/stock-evidence";
import { gateConclusion, gateOnDataQuality } from "./data-gate";

/** Trading days of history fetched per analysis (the engine's window, so a backtest call sees the same). */
export const BARS_PER_ANALYSIS = ANALYSIS_WINDOW_BARS;
const NEWS_LIMIT = 8;
const SNAPSHOT_BARS = 30;
/** Strategies joining one report prompt: the chat's per-turn limit, so a long list cannot swamp the prompt. */
const MAX_REPORT_SKILLS = MAX_SKILLS_PER_TURN;

export interface AnalysisJob {
  target: TResolvedSymbol;
  reportType: "simple" | "detailed" | "full" | "brief";
  language?: string | null;
  phase: "auto" | "premarket" | "intraday" | "postmarket";
  stockName?: string | null;
  queryId: string;
  traceId: string;
  taskId?: string | null;
  triggerSource: string;
  /** force_refresh: ignore cached bars and quote. */
  forceRefresh?: boolean;
  /** Strategy ids of the request: their instructions join the LLM prompt; unknown ids are ignored. */
  skills?: readonly string[] | null;
  signal?: AbortSignal;
  /** Progress 0–100 with a stage message (async tasks stream it). */
  onProgress?: (progress: number, message: string) => void;
}

export interface AnalysisOutcome {
  record: AnalysisHistory;
  report: TAnalysisReport;
  diagnostics: TRunDiagnosticSummary;
}

/** A run that could not produce a report (no market data, ...); the message is safe to show. */
export class AnalysisFailedError extends Error {
  override name = "AnalysisFailedError";
  constructor(
    message: string,
    readonly reason: FailureReason | null = null,
  ) {
    super(message);
  }
}

/**
 * The one analysis pipeline (sync requests, async tasks, the scheduler): market data → news → rule
 * decision → optional LLM → report → stored history record with diagnostics and flow.
 */
export async function runAnalysis(job: AnalysisJob): Promise<AnalysisOutcome> {
  const { target } = job;
  const language = normalizeReportLanguage(job.language, getSettings().REPORT_LANGUAGE);
  const run = new RunRecorder({
    queryId: job.queryId,
    traceId: job.traceId,
    taskId: job.taskId,
    stockCode: target.displayCode,
    stockName: target.name ?? job.stockName ?? null,
    triggerSource: job.triggerSource,
  });
  const progress = (pct: number, message: string) => job.onProgress?.(pct, message);

  progress(10, "fetching daily bars");
  let bars: TDailyBar[];
  let barsSource: string;
  let barsAttempts: { provider: string; ok: boolean }[];
  try {
    const result = await run.stage(
      "daily_bars",
      "Daily bars",
      "data_source",
      () => getDailyBars(target, BARS_PER_ANALYSIS, undefined, { refresh: job.forceRefresh }),
      (r) => ({
        provider: r.source,
        attempts: r.attempts,
        recordCount: r.bars.length,
        details: { cache: r.cache },
      }),
    );
    bars = result.bars;
    barsSource = result.source;
    barsAttempts = result.attempts;
  } catch (error) {
    if (error instanceof InvalidDataFileError)
      throw new AnalysisFailedError(`Invalid data file for ${target.displayCode}: ${error.message}`);
    throw new AnalysisFailedError(
      `No market data for ${target.displayCode}: ${(error as Error).message}`,
      failureReason(error, target),
    );
  }
  if (bars.length === 0) throw new AnalysisFailedError(`No market data for ${target.displayCode}`);

  progress(30, "fetching the quote");
  const quoteResult = await run.optionalStage(
    "quote",
    "Realtime quote",
    "data_source",
    () => getQuote(target, undefined, { refresh: job.forceRefresh }),
    (r) => ({
      provider: r.source,
      attempts: r.attempts,
    }),
  );
  const quote: TQuote | null = quoteResult?.data ?? null;
  const dataSource = quote?.source ?? barsSource;
  // Spec 2.6 rule 4: the report language also picks the name shown (English name where one is known).
  const name = (language === "en" ? target.nameEn : undefined) ?? target.name ?? quote?.name ?? job.stockName ?? null;

  progress(45, "searching news");
  const news = await run.optionalStage(
    "news",
    "News search",
    "data_source",
    () =>
      searchStockNews(
        { code: target.displayCode, name, market: target.market, kind: target.kind },
        { language, limit: NEWS_LIMIT, signal: job.signal },
      ),
    (r) => ({
      status: r.attempts.length === 0 ? "not_configured" : r.items.length > 0 ? "ok" : "degraded",
      provider: r.provider,
      attempts: r.attempts,
      recordCount: r.items.length,
      message:
        r.attempts.length === 0 ? "no news search key configured" : r.items.length === 0 ? "no news found" : undefined,
    }),
  );
  const newsItems = news?.items ?? [];

  const quality = assessDataQuality({
    bars,
    source: barsSource,
    quoteSource: quote?.source ?? null,
    attempts: barsAttempts,
    market: target.market,
    code: target.code,
    kind: target.kind,
    at: now(),
    language,
  });
  const stale = quality.reasons.some((r) => r.code === "stale_bars");

  progress(60, "computing indicators and the rule decision");
  const rule = await run.stage("decision", "Indicators and rule decision", "analysis", () =>
    buildRuleReport({
      target: {
        kind: target.kind,
        market: target.market,
        code: target.code,
        displayCode: target.displayCode,
        name: name ?? undefined,
        nameEn: target.nameEn,
      },
      bars,
      quote,
      phase: job.phase,
      language,
      reportType: job.reportType,
      dataSource,
      staleSince: stale ? (bars.at(-1)?.date ?? null) : null,
    }),
  );

  // One series (the bars plus today's provisional bar from the quote) feeds the indicators,
  // the stored bars, the chart and the headline price.
  const series = mergeQuoteBars(bars, quote, target.market);
  const skills = await chooseSkills(job, run);
  const llm = await runLlm(job, run, rule, series.bars, quote, newsItems, name, skills, progress);

  const proposed = llm?.ok ? llmSummary(llm.report, rule, run) : rule.summary;
  const gate = gateOnDataQuality(
    quality,
    proposed,
    llm?.ok ? llmStrategy(llm.report, rule, proposed.action, run) : rule.strategy,
    rule.indicators,
    language,
  );
  if (gate.gated)
    run.note("data_quality", "Data quality", "analysis", {
      status: "degraded",
      message: `data rated insufficient: ${proposed.action ?? "no action"} replaced by watch (${quality.reasons.map((r) => r.code).join(", ")})`,
    });
  const { summary, strategy } = gate;

  progress(80, "reading the engine's record on this stock");
  const sample = quality.reasons.some((r) => r.code === "sample_data");
  const figures = sample
    ? "sample"
    : await run.optionalStage(
        "evidence",
        "Engine record",
        "analysis",
        () => stockRecord(target, bars.at(-1)!, job.signal),
        (f) => ({ recordCount: Object.values(f).reduce((s, x) => s + (x?.nCalls ?? 0), 0) }),
      );
  const evidence = reportEvidence(summary.action, target, figures ?? null, language);

  progress(90, "storing the report");
  const details = reportDetails(rule, llm, news, series, quote, language, skills, evidence, quality, summary);
  // Diagnostics and flow are final before the one write, so the record never exists without them.
  const diagnostics = run.diagnostics();
  const record = await createAnalysisRecord({
    queryId: job.queryId,
    traceId: job.traceId,
    stockCode: target.code,
    displayCode: target.displayCode,
    stockName: name,
    market: target.market,
    assetType: target.kind,
    targetKey: dedupKey(target),
    reportType: job.reportType,
    reportLanguage: language,
    region: target.market,
    analysisPhase: rule.market_phase_summary.phase,
    currentPrice: rule.indicators.price,
    changePct: rule.indicators.change_pct,
    volumeRatio: quote?.volume_ratio ?? null,
    turnoverRate: quote?.turnover_rate ?? bars.at(-1)?.turnover_rate ?? null,
    modelUsed: llm?.ok ? llm.model : null,
    engineVersion: RULE_ENGINE_VERSION,
    dataSource,
    marketPhaseSummary: rule.market_phase_summary as unknown as Record<string, unknown>,
    summary,
    strategy,
    details,
    rawResult: details.raw_result,
    contextSnapshot: details.context_snapshot,
    diagnostics,
    flow: run.flow(),
    news: newsItems.map(
      (item): NewsEvidence => ({
        title: item.title,
        snippet: item.snippet,
        url: item.url,
        source: item.source,
        published_at: item.published_at,
      }),
    ),
  });
  // A directional result becomes a decision signal; never throws (failures are logged).
  await createSignalFromAnalysis(record, job.triggerSource);
  progress(100, "done");
  return { record, report: toAnalysisReport(record), diagnostics };
}

async function runLlm(
  job: AnalysisJob,
  run: RunRecorder,
  rule: TRuleReport,
  bars: TDailyBar[],
  quote: TQuote | null,
  news: NewsSearchResult["items"],
  name: string | null,
  skills: readonly LoadedSkill[],
  progress: (pct: number, message: string) => void,
): Promise<LlmReportResult | null> {
  if (!llmConfigured()) {
    run.note("llm", "LLM report", "model", {
      status: "not_configured",
      message: "no LLM channel configured: rule-based report",
    });
    return null;
  }
  progress(70, "asking the model");
  const result = await run.optionalStage(
    "llm",
    "LLM report",
    "model",
    () =>
      generateLlmReport(
        {
          target: {
            code: job.target.code,
            display_code: job.target.displayCode,
            name,
            market: job.target.market,
            asset_type: job.target.kind,
          },
          quote,
          indicators: rule.indicators as unknown as Record<string, unknown>,
          ruleDecision: {
            summary: rule.summary,
            strategy: rule.strategy,
            guardrail_reasons: rule.guardrail_reasons,
            score_breakdown: rule.score_breakdown,
            structure: rule.structure,
          },
          news: news as unknown as Record<string, unknown>[],
          recentBars: bars.slice(-20) as unknown as Record<string, unknown>[],
          phase: rule.market_phase_summary as unknown as Record<string, unknown>,
          dataNotes: rule.is_sample_data ? ["sample data: not real market prices"] : [],
          language: rule.report_language,
          reportType: job.reportType,
          skills,
        },
        { signal: job.signal, callType: "analysis", stockCode: job.target.code, queryId: job.queryId },
      ),
    (r) => ({
      status: r.ok ? "ok" : "degraded",
      provider: r.ok ? `${r.channel}/${r.model}` : null,
      message: r.ok ? undefined : `fell back to the rule-based report: ${r.reason}`,
      attempts: r.attempts.map((a) => ({
        provider: `${a.channel}/${a.model}`,
        ok: a.ok,
        reason: a.ok ? null : a.reason,
        ms: a.ms,
      })),
    }),
  );
  if (result?.ok) run.setModel(result.model);
  return result;
}

/**
 * The request's strategies for the LLM prompt, recorded as the run's `skills` stage: which were applied, which
 * ids name no strategy (ignored), which were over the limit. No LLM channel: nothing to apply them to (skipped).
 */
async function chooseSkills(job: AnalysisJob, run: RunRecorder): Promise<LoadedSkill[]> {
  const requested = [...(job.skills ?? [])];
  if (requested.length === 0) return [];
  if (!llmConfigured()) {
    run.note("skills", "Strategies", "analysis", {
      status: "skipped",
      message: "rule-based report: strategies apply only when an LLM writes the report",
      details: { requested, applied: [] },
    });
    return [];
  }
  const chosen = await run.optionalStage(
    "skills",
    "Strategies",
    "analysis",
    async () => {
      const { skills, unknown } = await resolveSkills(requested);
      return {
        applied: skills.slice(0, MAX_REPORT_SKILLS),
        unknown,
        overLimit: skills.slice(MAX_REPORT_SKILLS).map((s) => s.id),
      };
    },
    ({ applied, unknown, overLimit }) => {
      const ignored = [
        ...(unknown.length > 0 ? [`unknown ids ignored: ${unknown.join(", ")}`] : []),
        ...(overLimit.length > 0 ? [`over the limit of ${MAX_REPORT_SKILLS}, ignored: ${overLimit.join(", ")}`] : []),
      ];
      const used = applied.length > 0 ? `applied: ${applied.map((s) => s.id).join(", ")}` : "none applied";
      return {
        status: ignored.length > 0 ? "degraded" : "ok",
        message: [used, ...ignored].join("; "),
        recordCount: applied.length,
        details: { requested, applied: applied.map((s) => s.id), unknown, over_limit: overLimit },
      };
    },
  );
  return chosen?.applied ?? [];
}

/**
 * The model's conclusion, held to the same action classification and guardrails as the rules (spec 2.6 rule 1):
 * its action must agree with its own score band unless a recorded guardrail reason explains a
 * more cautious one; otherwise the band's action stands, and the flow records why.
 */
function llmSummary(report: TLlmReport, rule: TRuleReport, run: RunRecorder): TReportSummary {
  const language = rule.report_language;
  const score = Math.round(report.core_conclusion.score);
  const classified = classifyDecisionAction({
    value: report.core_conclusion.action,
    advice: report.operation_advice,
    score,
    guardrailReasons: rule.guardrail_reasons,
  });
  if (classified.overridden) {
    run.note("llm_action", "LLM action check", "analysis", {
      status: "degraded",
      message: `the model's action ${classified.text_action} disagrees with its own score ${score} (${classified.band} band) and no guardrail reason explains it: aligned to ${classified.action}`,
    });
  }
  return {
    analysis_summary: rule.is_sample_data
      ? `${SAMPLE_DATA_NOTICE[language]} ${report.core_conclusion.one_sentence}`
      : report.core_conclusion.one_sentence,
    operation_advice: report.operation_advice,
    action: classified.action,
    action_label: actionLabel(classified.action, language),
    trend_prediction: report.trend_prediction,
    sentiment_score: score,
    sentiment_label: sentimentLabel(score, language),
  };
}

/**
 * The model's levels, held to the plan invariants of its own action; a plan that breaks one
 * is replaced by the engine's plan for that action, and the flow records why.
 */
function llmStrategy(
  report: TLlmReport,
  rule: TRuleReport,
  action: TDecisionAction | null,
  run: RunRecorder,
): TReportStrategy {
  const points = report.battle_plan.sniper_points;
  const problem = action === null ? null : planProblem(action, points, rule.indicators);
  if (action !== null && problem !== null) {
    const plan = structurePlan(rule.indicators, action, "llm");
    const language = rule.report_language;
    run.note("llm_plan", "LLM plan check", "analysis", {
      status: "degraded",
      message: `the model's plan was replaced by the rule plan for ${action}: ${problem}`,
    });
    return {
      ideal_buy: levelText(plan.ideal_buy, language),
      secondary_buy: levelText(plan.secondary_buy, language),
      stop_loss: levelText(plan.stop_loss, language),
      take_profit: levelText(plan.take_profit, language),
    };
  }
  const show = (value: number | null, fallback: string | null) => (value === null ? fallback : value.toFixed(2));
  return {
    ideal_buy: show(points.ideal_buy, rule.strategy.ideal_buy),
    secondary_buy: show(points.secondary_buy, rule.strategy.secondary_buy),
    stop_loss: show(points.stop_loss, rule.strategy.stop_loss),
    take_profit: show(points.take_profit, rule.strategy.take_profit),
  };
}

const EMPTY_NEWS = {
  zh: "未检索到相关新闻证据：本报告仅基于行情与技术指标。",
  en: "No news evidence was found: this report rests on prices and technical indicators only.",
};

/** Every bar the indicators used, compact: a stored report's numbers can be recomputed. */
function compactBars(bars: readonly TDailyBar[]) {
  return {
    columns: ["date", "open", "high", "low", "close", "volume"],
    rows: bars.map((b) => [b.date, b.open, b.high, b.low, b.close, Number.isFinite(b.volume) ? b.volume : null]),
  };
}

/** The moment the headline price belongs to: today's quote, or a session's close. Live only on its session's day. */
function asOf(series: MergedSeries, quote: TQuote | null, market: TResolvedSymbol["market"]) {
  const one = onePriceOf(series, quote);
  return {
    date: one?.date ?? null,
    basis: one?.basis ?? "close",
    time: one?.time ?? null,
    provisional_bar: series.merge === "appended",
    live: one?.basis === "quote" && one.date === marketDate(market, now()),
  };
}

function reportDetails(
  rule: TRuleReport,
  llm: LlmReportResult | null,
  news: NewsSearchResult | null,
  series: MergedSeries,
  quote: TQuote | null,
  language: "zh" | "en",
  skills: readonly LoadedSkill[],
  evidence: TEvidence,
  dataQuality: TDataQuality,
  summary: TReportSummary,
): TReportDetails {
  const bars = series.bars;
  const items = news?.items ?? [];
  // The gate's advice replaces every position advice when the data cannot carry a call.
  const advice = dataQuality.level === "insufficient" ? summary.operation_advice : null;
  const newsContent =
    items.length > 0
      ? items.map((n) => `- [${n.title}](${n.url})${n.snippet ? ` — ${n.snippet}` : ""}`).join("\n")
      : null;
  const details: TReportDetails = {
    news_content: newsContent,
    raw_result: sanitizeValue({
      engine: llm?.ok ? "llm" : "rules",
      dashboard: gateConclusion(rule.dashboard, dataQuality, advice),
      guardrail_reasons: rule.guardrail_reasons,
      score_breakdown: rule.score_breakdown,
      structure: rule.structure,
      ...(llm?.ok ? { llm_report: gateConclusion(llm.report, dataQuality, advice), llm_model: llm.model } : {}),
      ...(llm && !llm.ok ? { llm_fallback_reason: llm.reason } : {}),
    }) as Record<string, unknown>,
    context_snapshot: sanitizeValue({
      quote,
      indicators: rule.indicators,
      recent_bars: bars.slice(-SNAPSHOT_BARS),
      indicator_bars: compactBars(bars),
      as_of: asOf(series, quote, rule.market_phase_summary.market),
      market_phase: rule.market_phase_summary,
      data_source: rule.data_source,
      is_sample_data: rule.is_sample_data,
    }) as Record<string, unknown>,
    analysis_context_pack_overview: {
      bars: bars.length,
      first_bar: bars[0]?.date ?? null,
      last_bar: bars.at(-1)?.date ?? null,
      quote_source: quote?.source ?? null,
      data_source: rule.data_source,
      is_sample_data: rule.is_sample_data,
      news_count: items.length,
      news_provider: news?.provider ?? null,
      llm_used: Boolean(llm?.ok),
    },
    ...NOT_GATHERED_DETAILS,
    // Only a report the model wrote followed the strategies; a rule-based one (no LLM, or the LLM failed) used none.
    skills_used: llm?.ok ? skills.map((s) => s.id) : [],
    evidence,
    data_quality: dataQuality,
  };
  if (items.length === 0) details.empty_news_disclosure = EMPTY_NEWS[language];
  return details;
}
