import { ApiError } from "@/lib/errors/api-error";
import {
  collectTokens,
  MAX_RAW_TOKENS,
  resolveTokens,
  type TRejectionCode,
  type TResolvedSymbol,
  type TSymbolRejection,
} from "@/lib/market/symbols";
import type { TAnalyzeRequest } from "./schemas";

// Spec 4.2 rule 3: a token that took the name path and failed fails the whole request; only code-like
// targets (unsupported or unregistered) are listed as rejected beside the accepted ones.
const NAME_FAILURES: ReadonlySet<TRejectionCode> = new Set([
  "too_long",
  "invalid_characters",
  "mixed_letters_digits",
  "ambiguous_name",
  "unknown_name",
]);

export interface AnalysisPlan {
  targets: TResolvedSymbol[];
  rejected: TSymbolRejection[];
  /** Spec 4.2 rule 8: exactly one target and nothing rejected. */
  single: boolean;
}

function badRequest(message: string): ApiError {
  return ApiError.of("validation_error", message);
}

/** A 400 about one token: the English reason, plus its code and values for clients that word it themselves. */
function rejectedToken(rejection: TSymbolRejection): ApiError {
  return ApiError.of("validation_error", `${rejection.token}: ${rejection.reason}`, {
    stock_code: rejection.token,
    reason_code: rejection.code,
    reason_params: rejection.params,
  });
}

/** Spec 4.2 rules 1–5 (and 6 for sync mode): which targets one analyze request stands for. */
export function planAnalysis(
  request: Pick<TAnalyzeRequest, "stock_code" | "stock_codes" | "async_mode">,
): AnalysisPlan {
  const tokens = collectTokens(request.stock_code, request.stock_codes);
  if (tokens.length === 0) throw badRequest("stock_code or stock_codes must contain at least one code or name");
  if (tokens.length > MAX_RAW_TOKENS) {
    throw badRequest(
      `Too many codes: ${tokens.length} given, at most ${MAX_RAW_TOKENS} per request (duplicates and invalid entries count)`,
    );
  }
  const { targets, rejected } = resolveTokens(tokens);
  const badName = rejected.find((r) => NAME_FAILURES.has(r.code));
  if (badName) throw rejectedToken(badName);
  if (targets.length === 0) {
    const first = rejected[0];
    throw first ? rejectedToken(first) : badRequest("No valid code or name was given");
  }
  const plan = { targets, rejected, single: targets.length === 1 && rejected.length === 0 };
  if (!request.async_mode) checkSyncPlan(plan);
  return plan;
}

/** One target named by one token, resolved like a sync analyze request (the backtest uses it); else a 400. */
export function resolveSingleTarget(token: string): TResolvedSymbol {
  const plan = planAnalysis({ stock_code: token, async_mode: false });
  return plan.targets[0]!;
}

function checkSyncPlan(plan: AnalysisPlan): void {
  if (plan.targets.length > 1) {
    throw badRequest(
      `Sync mode analyses one code at a time (${plan.targets.length} given); set async_mode to true for several`,
    );
  }
  const first = plan.rejected[0];
  if (first) throw rejectedToken(first);
}
