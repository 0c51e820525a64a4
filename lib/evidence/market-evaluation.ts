import { RULE_ENGINE_VERSION, type TDecisionAction, type TReportLanguage } from "@/lib/analysis/engine";
import type { TMarket } from "@/lib/market/symbols";
import shipped from "./market-evaluation.json";
import type { TEvidenceScope } from "./schemas";

// The `market` scope of the evidence: the registered evaluation of the shipped engine version over a universe of real
// series (docs/evaluations/), written by `npm run evaluate -- <folder> --write lib/evidence/market-evaluation.json`.
// An evaluation of another version never describes today's calls.

export interface MarketEvaluation {
  engine_version: string;
  markets: Partial<
    Record<
      TMarket,
      {
        universe: string;
        stocks: number;
        first_year: number;
        last_year: number;
        label: string | null;
        rank_correlation: number | null;
        rank_correlation_t: number | null;
        rank_dates: number;
        scopes: Partial<Record<TDecisionAction, TEvidenceScope>>;
      }
    >
  >;
}

const evaluation = shipped as MarketEvaluation;

const MARKET_NAMES: Record<TMarket, Record<TReportLanguage, string>> = {
  cn: { zh: "只A股", en: "China A-shares" },
  hk: { zh: "只港股", en: "Hong Kong stocks" },
  us: { zh: "只美股", en: "US stocks" },
};
const LABELS: Record<string, string> = { "DSA development universe": "DSA 开发样本" };

/** What was evaluated, in the report's language: "219 US stocks, 2000–2024 (DSA development universe)". */
export function universeText(
  market: TMarket,
  u: { stocks: number; first_year: number; last_year: number; label: string | null },
  language: TReportLanguage,
): string {
  if (language === "zh")
    return `${u.label ? `${LABELS[u.label] ?? u.label}中的 ` : ""}${u.stocks} ${MARKET_NAMES[market].zh}（${u.first_year}–${u.last_year}）`;
  return `${u.stocks} ${MARKET_NAMES[market].en}, ${u.first_year}–${u.last_year}${u.label ? ` (${u.label})` : ""}`;
}

/** The shipped evaluation's figures for one action in one market, or null (another version, or no such calls). */
export function marketScope(
  market: TMarket,
  action: TDecisionAction,
  language: TReportLanguage,
): TEvidenceScope | null {
  if (evaluation.engine_version !== RULE_ENGINE_VERSION) return null;
  const evaluated = evaluation.markets[market];
  const scope = evaluated?.scopes[action];
  return evaluated && scope ? { ...scope, universe: universeText(market, evaluated, language) } : null;
}
