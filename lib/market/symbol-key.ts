import type { TMarketSymbol } from "./providers/types";

/**
 * The cache and seed key of a target. An index and a stock with the same digits are different keys
 * (sh000001 the SSE Composite vs 000001 Ping An Bank).
 */
export function symbolKey(symbol: TMarketSymbol): string {
  if (symbol.kind === "index") return `index:${symbol.canonicalId ?? symbol.code}`;
  return `${symbol.market}:${symbol.code}`;
}
