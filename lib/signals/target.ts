import type { TMarketSymbol } from "@/lib/market";
import { dedupKey, isRejection, resolveToken, type TMarket } from "@/lib/market/symbols";

export interface SignalTarget {
  /** Normalised code: 600519, 00700, AAPL; an index's canonical id (000300.SH). */
  stockCode: string;
  assetType: "stock" | "index";
  /** One key per stock across code variants (lib/market/symbols dedupKey): stock:cn:600519, index:000300.SH. */
  targetKey: string;
}

/**
 * The stock a signal is about. A code that resolves (as the analyze request resolves it) to the signal's
 * market is normalised, so 600519, 600519.SH and sh600519 are one stock for dedup, invalidation and filters;
 * anything else (a code of another system, a delisted code) is kept upper-cased under the given market.
 */
export function signalTarget(rawCode: string, market: TMarket): SignalTarget {
  const code = rawCode.trim();
  const resolved = resolveToken(code);
  if (!isRejection(resolved) && resolved.market === market) {
    return { stockCode: resolved.code, assetType: resolved.kind, targetKey: dedupKey(resolved) };
  }
  const upper = code.toUpperCase();
  return { stockCode: upper, assetType: "stock", targetKey: `stock:${market}:${upper}` };
}

/** The provider-facing symbol of a stored signal (for the outcome engine's daily bars). */
export function marketSymbolOf(row: { stockCode: string; market: string; assetType: string }): TMarketSymbol {
  const market = row.market as TMarket;
  if (row.assetType === "index") return { kind: "index", market, code: row.stockCode, canonicalId: row.stockCode };
  return { kind: "stock", market, code: row.stockCode };
}
