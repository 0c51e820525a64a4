import { RULE_ENGINE_VERSION, type TDecisionAction } from "@/lib/analysis/engine";
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
        rank_correlation: number | null;
        rank_correlation_t: number | null;
        rank_dates: number;
        scopes: Partial<Record<TDecisionAction, TEvidenceScope>>;
      }
    >
  >;
}

const evaluation = shipped as MarketEvaluation;

/** The shipped evaluation's figures for one action in one market, or null (another version, or no such calls). */
export function marketScope(market: TMarket, action: TDecisionAction): TEvidenceScope | null {
  if (evaluation.engine_version !== RULE_ENGINE_VERSION) return null;
  return evaluation.markets[market]?.scopes[action] ?? null;
}
