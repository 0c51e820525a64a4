import type { AnalysisHistory } from "@/generated/prisma/client";
import { normalizeReportLanguage, sentimentLabel } from "@/lib/analysis/engine";
import { llmConfigured, type LlmChannel } from "@/lib/analysis/llm/channels";
import type { LlmModelFactory } from "@/lib/analysis/llm/generate-report";
import { RunRecorder } from "@/lib/analysis/run-recorder";
import { sanitizeValue } from "@/lib/log/sanitize";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { createAnalysisRecord, type NewsEvidence } from "@/lib/history/repository";
import type { TReportDetails, TReportSummary } from "@/lib/history/schemas";
import { marketOverview, type MarketOverviewOptions, type TMarketOverview } from "@/lib/market/overview";
import type { ChainOptions } from "@/lib/market/providers/chain";
import type { TMarket } from "@/lib/market/symbols";
import {
  configuredNewsChain,
  searchNewsWith,
  type NewsAttempt,
  type NewsChain,
  type NewsProviderName,
  type TNewsItem,
} from "@/lib/news";
import { generateReviewText, type ReviewLlmResult } from "./llm";
import {
  buildRulePayload,
  hasMarketData,
  regionsOf,
  renderDataSections,
  withReviewText,
  renderRuleBody,
  REVIEW_STOCK_NAME,
  type ReviewLanguage,
} from "./rules";
import { ZMarketReviewPayload, type TMarketReviewPayload, type TMarketReviewRegion } from "./schemas";

// The market review generator: marketOverview for each region, market news, the rule
// review (always), the LLM review when a channel is configured (rule text as the fallback), and one
// history record (code MARKET, report_type market_review, query_id = the task id) holding the Markdown and
// the structured payload. The task queue, routes and UI call this; they own the one-at-a-time guard.
//
// That guard is per machine, as the spec has it (4.2: "process/machine-local and not shared across replicas"):
// it is the task table's unique active key (lib/tasks/submit.ts MARKET_REVIEW_KEY), which must name the process
// host (os.hostname()), so replicas on one host share one review at a time and replicas on other hosts (other
// containers) each have their own. A key without the host would make it cluster-wide once PostgreSQL is shared.

export const MARKET_REVIEW_CODE = "MARKET";
export const MARKET_REVIEW_REPORT_TYPE = "market_review";
/** News kept per region and in all. */
const NEWS_PER_REGION = 5;
const NEWS_MAX = 8;
const NEWS_DAYS = 3;

export interface MarketReviewJob {
  queryId: string;
  traceId: string;
  taskId?: string | null;
  region: TMarketReviewRegion;
  /** Report language (aliases accepted); defaults to REPORT_LANGUAGE. */
  language?: string | null;
  triggerSource: string;
  signal?: AbortSignal;
  /** Progress 0–100 with a stage message (the task stream shows it). */
  onProgress?: (progress: number, message: string) => void;
}

/** Test seams; production uses the configured providers and channels. */
export interface MarketReviewDeps {
  chain?: ChainOptions;
  newsChain?: NewsChain;
  overview?: (region: TMarket, options: MarketOverviewOptions) => Promise<TMarketOverview>;
  llmChannels?: readonly LlmChannel[];
  modelFactory?: LlmModelFactory;
  llmTimeoutMs?: number;
}

export interface MarketReviewOutcome {
  record: AnalysisHistory;
  /** The standalone review (title, body, disclaimer): the task's market_review_report. */
  markdown: string;
  payload: TMarketReviewPayload;
}

/** No region gave any market data (no index quote, no breadth): there is nothing to review. */
export class MarketReviewUnavailableError extends Error {
  override name = "MarketReviewUnavailableError";
}

const EMPTY_NEWS: Record<ReviewLanguage, string> = {
  zh: "未检索到大盘相关新闻证据：本复盘仅基于行情数据。",
  en: "No market news evidence was found: this review rests on market data only.",
};

/** The news query of a region and the language it is written in. */
export function marketNewsQuery(
  region: TMarket,
  language: ReviewLanguage,
): { query: string; language: ReviewLanguage } {
  if (region === "cn") return { query: "A股 大盘 收盘 复盘 上证指数", language: "zh" };
  if (region === "hk") {
    return language === "en"
      ? { query: "Hang Seng Index Hong Kong stocks market close", language: "en" }
      : { query: "港股 恒生指数 收盘 行情", language: "zh" };
  }
  return { query: "US stock market close S&P 500 Nasdaq Dow Jones", language: "en" };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("market review aborted");
}

interface MarketNews {
  items: { region: TMarket; item: TNewsItem }[];
  attempts: NewsAttempt[];
  provider: NewsProviderName | null;
  configured: boolean;
}

async function searchMarketNews(
  regions: TMarket[],
  language: ReviewLanguage,
  chain: NewsChain,
  signal: AbortSignal | undefined,
): Promise<MarketNews> {
  const out: MarketNews = { items: [], attempts: [], provider: null, configured: chain.providers.length > 0 };
  if (!out.configured) return out;
  const seen = new Set<string>();
  for (const region of regions) {
    const { query, language: queryLanguage } = marketNewsQuery(region, language);
    const result = await searchNewsWith(
      query,
      { limit: NEWS_PER_REGION, days: NEWS_DAYS, language: queryLanguage, signal },
      chain,
    );
    out.attempts.push(...result.attempts);
    out.provider ??= result.provider;
    for (const item of result.items) {
      if (seen.has(item.url)) continue;
      seen.add(item.url);
      out.items.push({ region, item });
    }
  }
  out.items = out.items.slice(0, NEWS_MAX);
  return out;
}

export async function runMarketReview(job: MarketReviewJob, deps: MarketReviewDeps = {}): Promise<MarketReviewOutcome> {
  const language = normalizeReportLanguage(job.language, getSettings().REPORT_LANGUAGE);
  const regions = regionsOf(job.region);
  const stockName = REVIEW_STOCK_NAME[language];
  const run = new RunRecorder({
    queryId: job.queryId,
    traceId: job.traceId,
    taskId: job.taskId,
    stockCode: MARKET_REVIEW_CODE,
    stockName,
    triggerSource: job.triggerSource,
  });
  const progress = (pct: number, message: string) => job.onProgress?.(pct, message);
  const overviewOf = deps.overview ?? marketOverview;

  progress(5, "starting the market review");
  const overviews: TMarketOverview[] = [];
  const reasons: string[] = [];
  for (const [i, region] of regions.entries()) {
    throwIfAborted(job.signal);
    progress(10 + Math.round((30 * i) / regions.length), `fetching the ${region} market overview`);
    const overview = await run.optionalStage(
      `overview_${region}`,
      `Market overview (${region})`,
      "data_source",
      () => overviewOf(region, deps.chain ? { chain: deps.chain } : {}),
      (o) => {
        const quoted = o.indices.filter((x) => x.quote !== null).length;
        const complete = quoted === o.indices.length && o.breadth !== null;
        return {
          // A region without data is degraded, not failed: the review goes on when another region has data,
          // and when none has, the run throws MarketReviewUnavailableError and stores nothing.
          status: complete ? "ok" : "degraded",
          provider: o.source,
          recordCount: quoted,
          message: !hasMarketData(o)
            ? "no index quote and no breadth"
            : complete
              ? undefined
              : `${quoted}/${o.indices.length} indices quoted${o.breadth ? "" : "; no breadth"}`,
          details: {
            indices: o.indices.length,
            indices_quoted: quoted,
            breadth: o.breadth !== null,
            sectors: o.sectors !== null,
            breadth_note: o.breadth_note,
            sectors_note: o.sectors_note,
          },
        };
      },
    );
    if (!overview) {
      reasons.push(`${region}: overview failed`);
      continue;
    }
    if (!hasMarketData(overview)) {
      reasons.push(`${region}: ${overview.indices.find((x) => x.error)?.error ?? overview.breadth_note ?? "no data"}`);
    }
    overviews.push(overview);
  }
  const usable = overviews.filter(hasMarketData);
  if (usable.length === 0) {
    throw new MarketReviewUnavailableError(
      `No market data for the market review (${job.region}): ${reasons.join("; ") || "no provider answered"}`,
    );
  }

  throwIfAborted(job.signal);
  progress(45, "searching market news");
  const newsChain = deps.newsChain ?? configuredNewsChain();
  const news = await run.optionalStage(
    "news",
    "Market news",
    "data_source",
    () => searchMarketNews(regions, language, newsChain, job.signal),
    (r) => ({
      status: !r.configured ? "not_configured" : r.items.length > 0 ? "ok" : "degraded",
      provider: r.provider,
      attempts: r.attempts,
      recordCount: r.items.length,
      message: !r.configured ? "no news search key configured" : r.items.length === 0 ? "no news found" : undefined,
    }),
  );
  throwIfAborted(job.signal);
  const newsItems = news?.items ?? [];

  progress(60, "writing the rule-based review");
  const rulePayload = await run.stage(
    "review_rules",
    "Rule-based review",
    "analysis",
    () => buildRulePayload({ region: job.region, overviews, news: newsItems, language, generatedAt: now() }),
    (p) => ({ details: { temperature: p.market_light.score, stance: p.outlook.stance, markets: p.regions.length } }),
  );
  const ruleBody = renderRuleBody(rulePayload);

  const llm = await runLlm(job, deps, run, rulePayload, progress);
  throwIfAborted(job.signal);

  progress(90, "storing the review");
  const body = llm?.ok ? llmBody(rulePayload, llm.text) : ruleBody;
  const payload = ZMarketReviewPayload.parse(
    sanitizeValue(llm?.ok ? withReviewText({ ...rulePayload, engine: "llm", model: llm.model }, body) : rulePayload),
  );
  const markdown = payload.markdown_report;
  const summary: TReportSummary = {
    analysis_summary: payload.sample_notice ? `${payload.sample_notice} ${payload.summary}` : payload.summary,
    operation_advice: payload.outlook.text,
    action: null,
    action_label: null,
    trend_prediction: payload.outlook.label,
    sentiment_score: payload.market_light.score,
    sentiment_label: sentimentLabel(payload.market_light.score, language),
  };
  const details = reviewDetails(payload, overviews, body, markdown, ruleBody, llm, news?.provider ?? null);
  const diagnostics = run.diagnostics();
  const record = await createAnalysisRecord({
    queryId: job.queryId,
    traceId: job.traceId,
    stockCode: MARKET_REVIEW_CODE,
    displayCode: MARKET_REVIEW_CODE,
    stockName,
    market: job.region,
    assetType: null,
    targetKey: `review:${job.region}`,
    reportType: MARKET_REVIEW_REPORT_TYPE,
    reportLanguage: language,
    region: job.region,
    analysisPhase: null,
    currentPrice: null,
    changePct: null,
    volumeRatio: null,
    turnoverRate: null,
    modelUsed: llm?.ok ? llm.model : null,
    // The stock rule set does not decide a review: no engine version.
    engineVersion: null,
    dataSource: payload.data_source,
    marketPhaseSummary: null,
    summary,
    strategy: { ideal_buy: null, secondary_buy: null, stop_loss: null, take_profit: null },
    details,
    rawResult: details.raw_result,
    contextSnapshot: details.context_snapshot,
    diagnostics: diagnostics as unknown as Record<string, unknown>,
    flow: run.flow() as unknown as Record<string, unknown>,
    news: payload.news.map(
      (n, i): NewsEvidence => ({
        title: n.title,
        snippet: newsItems[i]?.item.snippet ?? "",
        url: n.url,
        source: n.source,
        published_at: n.published_at,
      }),
    ),
  });
  progress(100, "done");
  return { record, markdown, payload };
}

async function runLlm(
  job: MarketReviewJob,
  deps: MarketReviewDeps,
  run: RunRecorder,
  payload: TMarketReviewPayload,
  progress: (pct: number, message: string) => void,
): Promise<ReviewLlmResult | null> {
  const configured = deps.llmChannels ? deps.llmChannels.length > 0 : llmConfigured();
  if (!configured) {
    run.note("llm", "LLM review", "model", {
      status: "not_configured",
      message: "no LLM channel configured: rule-based review",
    });
    return null;
  }
  progress(70, "asking the model");
  const result = await run.optionalStage(
    "llm",
    "LLM review",
    "model",
    () =>
      generateReviewText(payload, {
        signal: job.signal,
        queryId: job.queryId,
        channels: deps.llmChannels,
        modelFactory: deps.modelFactory,
        timeoutMs: deps.llmTimeoutMs,
      }),
    (r) => ({
      status: r.ok ? "ok" : "degraded",
      provider: r.ok ? `${r.channel}/${r.model}` : null,
      message: r.ok ? undefined : `fell back to the rule-based review: ${r.reason}`,
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

const DATA_HEADING: Record<ReviewLanguage, string> = { zh: "### 数据附表", en: "### Data tables" };

/** The model's narrative, then the data tables from the rules: the numbers shown are always the data's. */
function llmBody(payload: TMarketReviewPayload, text: string): string {
  const notice = payload.sample_notice ? `> ${payload.sample_notice}\n\n` : "";
  const data = renderDataSections(payload).replace(/^### /gm, "#### ");
  return `${notice}${text.trim()}\n\n${DATA_HEADING[payload.language]}\n\n${data}`;
}

function reviewDetails(
  payload: TMarketReviewPayload,
  overviews: TMarketOverview[],
  body: string,
  markdown: string,
  ruleBody: string,
  llm: ReviewLlmResult | null,
  newsProvider: string | null,
): TReportDetails {
  const byRegion = <T>(pick: (o: TMarketOverview) => T | null) =>
    Object.fromEntries(overviews.map((o) => [o.region, pick(o)]).filter(([, v]) => v !== null)) as Record<string, T>;
  const sectors = byRegion((o) => o.sectors);
  const details: TReportDetails = {
    news_content: payload.news.length > 0 ? payload.news.map((n) => `- [${n.title}](${n.url})`).join("\n") : null,
    // buildMarkdownReport reads `markdown` (the body, nested under its own title and disclaimer); the status
    // endpoint serves `report` (the standalone text) and the context snapshot's `market_review_payload`.
    raw_result: sanitizeValue({
      engine: payload.engine,
      markdown: body,
      report: markdown,
      rule_markdown: ruleBody,
      ...(llm?.ok ? { llm_model: llm.model, llm_channel: llm.channel } : {}),
      ...(llm && !llm.ok ? { llm_fallback_reason: llm.reason } : {}),
    }) as Record<string, unknown>,
    context_snapshot: sanitizeValue({
      market_review_payload: payload,
      overviews,
      data_source: payload.data_source,
      is_sample_data: payload.is_sample_data,
    }) as Record<string, unknown>,
    analysis_context_pack_overview: {
      regions: payload.regions,
      indices: overviews.reduce((s, o) => s + o.indices.length, 0),
      indices_quoted: overviews.reduce((s, o) => s + o.indices.filter((i) => i.quote !== null).length, 0),
      breadth_regions: overviews.filter((o) => o.breadth !== null).map((o) => o.region),
      sector_regions: overviews.filter((o) => o.sectors !== null).map((o) => o.region),
      data_source: payload.data_source,
      is_sample_data: payload.is_sample_data,
      news_count: payload.news.length,
      news_provider: newsProvider,
      llm_used: Boolean(llm?.ok),
    },
    financial_report: null,
    dividend_metrics: null,
    belong_boards: null,
    sector_rankings: Object.keys(sectors).length > 0 ? sanitizeValue(sectors) : null,
    concept_rankings: null,
    // Nested per region (no top-level scalars): the history Markdown shows breadth in the review body already.
    market_structure: sanitizeValue({ temperature: payload.market_light, breadth: byRegion((o) => o.breadth) }),
  };
  if (payload.news.length === 0) details.empty_news_disclosure = EMPTY_NEWS[payload.language];
  return details;
}
