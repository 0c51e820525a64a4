import { RULE_ENGINE_VERSION, type TDecisionAction, type TReportLanguage } from "@/lib/analysis/engine";
import { DECISION_ACTIONS } from "@/lib/analysis/engine/schemas";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { getDailyBars, type TDailyBar } from "@/lib/market";
import type { TMarketSymbol } from "@/lib/market/providers/types";
import { sourceFamily } from "@/lib/market/source-family";
import { symbolKey } from "@/lib/market/symbol-key";
import { marketScope } from "./market-evaluation";
import { pooledScope, stockFigures, type StockFigures } from "./scope";
import { EVIDENCE_HORIZON_DAYS, ZEvidence, type TEvidence, type TEvidenceScope } from "./schemas";
import { evidenceStatement } from "./statement";
import { walkForwardCalls } from "./walk-forward";

// The evidence a report carries (docs/api.md §13): the current engine walked forward over this stock's stored
// bars, kept per (stock, engine version, source) until a new bar arrives, and the shipped market evaluation.

/** About five years of sessions: enough independent 10-day windows for most actions, one replay of ~1 s. */
export const EVIDENCE_BARS = 1250;

type Figures = Partial<Record<TDecisionAction, StockFigures>>;

/**
 * The newest run of bars from the newest bar's source family (lib/market/source-family.ts): a record never mixes a
 * file's or the sample series' prices with another source's; the exchange feeds quote the same prices.
 */
export function sameSourceTail(bars: readonly TDailyBar[]): TDailyBar[] {
  const family = sourceFamily(bars.at(-1)?.source);
  let start = bars.length;
  while (start > 0 && sourceFamily(bars[start - 1]!.source) === family) start -= 1;
  return bars.slice(start);
}

function fingerprintOf(last: TDailyBar): string {
  return `${last.date}|${last.close}`;
}

async function computeFigures(
  symbol: TMarketSymbol,
  signal?: AbortSignal,
): Promise<{ figures: Figures; last: TDailyBar }> {
  const read = await getDailyBars(symbol, EVIDENCE_BARS);
  const bars = sameSourceTail(read.bars);
  const calls = await walkForwardCalls(bars, {
    market: symbol.market,
    isSample: bars.at(-1)?.source === "sample",
    signal,
  });
  const figures: Figures = {};
  for (const action of DECISION_ACTIONS) {
    const f = stockFigures(calls, action);
    if (f) figures[action] = f;
  }
  return { figures, last: bars.at(-1)! };
}

/**
 * Per-action figures of the engine on this stock's bars ending with `last` (the bar the analysis ended on), from
 * the store when they were computed from the same bars, else computed once and stored.
 */
export async function stockRecord(symbol: TMarketSymbol, last: TDailyBar, signal?: AbortSignal): Promise<Figures> {
  const id = { symbolKey: symbolKey(symbol), engineVersion: RULE_ENGINE_VERSION, source: last.source };
  const stored = await db().engineEvidence.findUnique({ where: { symbolKey_engineVersion_source: id } });
  if (stored && stored.fingerprint === fingerprintOf(last)) return JSON.parse(stored.figures) as Figures;
  const { figures, last: computedOn } = await computeFigures(symbol, signal);
  // Bars read for the record may end elsewhere (another provider answered): store them under their own key.
  const row = { ...id, source: computedOn.source };
  const data = { fingerprint: fingerprintOf(computedOn), figures: JSON.stringify(figures), computedAt: now() };
  await db().engineEvidence.upsert({
    where: { symbolKey_engineVersion_source: row },
    create: { ...row, ...data },
    update: data,
  });
  return computedOn.source === last.source ? figures : {};
}

/**
 * The report's `details.evidence` for its action, from the stock's figures: null when none could be read, or
 * "sample" for sample data, whose synthetic prices say nothing about the engine's skill (no record is computed).
 */
export function reportEvidence(
  action: TDecisionAction | null,
  symbol: Pick<TMarketSymbol, "market" | "kind">,
  figures: Figures | "sample" | null,
  language: TReportLanguage,
): TEvidence {
  const scopes: TEvidenceScope[] = [];
  const mine = action && figures !== "sample" ? figures?.[action] : undefined;
  if (action && mine) scopes.push(pooledScope(action, [mine], "stock", null)!);
  // The shipped evaluation is of stocks: it says nothing about an index.
  const shipped = action && symbol.kind === "stock" ? marketScope(symbol.market, action, language) : null;
  if (shipped) scopes.push(shipped);
  return ZEvidence.parse({
    engine_version: RULE_ENGINE_VERSION,
    action,
    horizon_days: EVIDENCE_HORIZON_DAYS,
    scopes,
    statement: evidenceStatement(action, scopes, language, figures === "sample"),
  });
}
