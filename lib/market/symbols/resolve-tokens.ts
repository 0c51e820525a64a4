import { normalizeToken } from "./normalize-text";
import { resolveToken, type ResolveOptions } from "./resolve-token";
import { isRejection, type TResolvedSymbol, type TSymbolRejection } from "./schemas";

/** Spec 4.2 rule 2 / section 8: at most this many non-blank raw tokens per analyze request. */
export const MAX_RAW_TOKENS = 50;

/**
 * Identity used for deduplication (spec 4.2 rule 4): stocks by market and normalised code, so
 * 600519, 600519.SH and sh600519 merge; indices by canonical id, so sh000001 and 上证指数 merge while
 * the index sh000001 and the stock 000001 stay apart.
 */
export function dedupKey(symbol: TResolvedSymbol): string {
  return symbol.kind === "index" ? `index:${symbol.canonicalId}` : `stock:${symbol.market}:${symbol.code}`;
}

/**
 * Spec 4.2 rule 1: tokens come from stock_code, then stock_codes. Blank entries are not tokens; the
 * caller counts what this returns against MAX_RAW_TOKENS (rejected and duplicate tokens included).
 */
export function collectTokens(stockCode?: string | null, stockCodes?: readonly string[] | null): string[] {
  const raw = [stockCode ?? "", ...(stockCodes ?? [])];
  return raw.filter((token) => normalizeToken(token).length > 0);
}

export interface TokenDuplicate {
  token: string;
  key: string;
  // The earlier token this one merged into.
  firstToken: string;
}

export interface ResolvedTokens {
  targets: TResolvedSymbol[];
  rejected: TSymbolRejection[];
  duplicates: TokenDuplicate[];
}

/**
 * Spec 4.2 rules 3 and 4: every token is resolved first, then targets are deduplicated keeping the first
 * occurrence. Rejections are kept per token, in order. Counting (rule 2) and the empty/all-rejected
 * outcomes (rule 5) are the caller's decisions.
 */
export function resolveTokens(tokens: readonly string[], options: ResolveOptions = {}): ResolvedTokens {
  const resolutions = tokens.map((token) => resolveToken(token, options));
  const result: ResolvedTokens = { targets: [], rejected: [], duplicates: [] };
  const firstByKey = new Map<string, TResolvedSymbol>();
  for (const resolution of resolutions) {
    if (isRejection(resolution)) {
      result.rejected.push(resolution);
      continue;
    }
    const key = dedupKey(resolution);
    const first = firstByKey.get(key);
    if (first) {
      result.duplicates.push({ token: resolution.token, key, firstToken: first.token });
      continue;
    }
    firstByKey.set(key, resolution);
    result.targets.push(resolution);
  }
  return result;
}
