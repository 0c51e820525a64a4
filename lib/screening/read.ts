import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import type { z } from "zod";
import {
  type TRunSummary,
  type TScreenResponse,
  type TStrategiesResponse,
  type TStrategyItem,
  type ZHistoryQuery,
  type ZRunDetail,
  type ZSourceHistoryResponse,
} from "./schemas";
import { screeningConfigured, SCREENING_CONTRACT_VERSION } from "./status";
import { allStrategies } from "./saved-strategies";
import { runResult } from "./stored-run";
import type { TStrategy } from "./strategy-schema";

// The screening reads: the strategies, and the stored runs as the reference's client lists them.

export function strategyItem(s: TStrategy, builtin: boolean, language: "zh" | "en"): TStrategyItem {
  return {
    id: s.id,
    name: s.name[language],
    title: s.name[language],
    description: s.description[language],
    version: SCREENING_CONTRACT_VERSION,
    category: s.category,
    tag: s.category,
    tags: [s.category],
    analysis_skills: [],
    market_scope: s.markets,
    market: s.markets.length === 1 ? s.markets[0]! : "all",
    names: s.name,
    descriptions: s.description,
    filters: s.filters,
    rank: s.rank,
    builtin,
  };
}

export async function listStrategies(language: "zh" | "en"): Promise<TStrategiesResponse> {
  const strategies = (await allStrategies()).map((e) => strategyItem(e.strategy, e.builtin, language));
  return { enabled: screeningConfigured(), strategies, strategy_count: strategies.length };
}

function summaryOf(result: TScreenResponse): TRunSummary {
  return {
    run_id: result.run_id,
    strategy: result.strategy,
    market: result.market,
    snapshot_source: result.snapshot_source,
    snapshot_count: result.snapshot_count,
    after_filter_count: result.after_filter_count,
    candidate_count: result.candidate_count,
    quality_status: result.quality_status,
    llm_ranked: result.llm_ranked,
    daily_enriched: result.daily_enriched,
    source_errors: result.source_errors,
    warnings: result.warnings,
    created_at: result.created_at,
  };
}

export async function listRuns(query: z.infer<typeof ZHistoryQuery>) {
  const rows = await db().screeningRun.findMany({
    where: { strategy: query.strategy, market: query.market },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
  });
  const runs = rows.map((row) => summaryOf(runResult(row)));
  return { enabled: screeningConfigured(), runs, run_count: runs.length };
}

export async function getRun(runId: string): Promise<z.infer<typeof ZRunDetail>> {
  const row = await db().screeningRun.findUnique({ where: { runId } });
  if (!row) throw notFound(`No screening run has id ${runId}`);
  const result = runResult(row);
  return { ...summaryOf(result), enabled: screeningConfigured(), result };
}

/** Per universe source over the latest runs: how often it listed a run's universe and what failed. */
export async function sourceHistory(limit: number): Promise<z.infer<typeof ZSourceHistoryResponse>> {
  const rows = await db().screeningRun.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  const sources: z.infer<typeof ZSourceHistoryResponse>["sources"] = {};
  const entryOf = (name: string) =>
    (sources[name] ??= { selected_runs: 0, error_count: 0, last_seen_at: null, error_samples: [] });
  let fallbackRuns = 0;
  for (const row of rows) {
    const result = runResult(row);
    if (result.snapshot_fallback_used) fallbackRuns += 1;
    const listed = result.snapshot_source === "none" ? [] : result.snapshot_source.split("+");
    for (const name of listed) {
      const entry = entryOf(name);
      entry.selected_runs += 1;
      entry.last_seen_at ??= result.created_at;
    }
    for (const error of result.source_error_details) {
      const entry = entryOf(error.source);
      entry.error_count += 1;
      if (entry.error_samples.length < 5) entry.error_samples.push(error.message);
    }
  }
  return { enabled: screeningConfigured(), runs_analyzed: rows.length, fallback_runs: fallbackRuns, sources };
}
