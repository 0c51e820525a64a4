import { classifyAShareCode, getIndexEntry, type TIndexProviderSymbols } from "@/lib/market/symbols";
import type { TMarketSymbol } from "./types";

/** SH / SZ / BJ of an A-share stock: the resolved exchange, else from the code's leading digits. */
export function aShareExchange(symbol: TMarketSymbol): "SH" | "SZ" | "BJ" | null {
  if (symbol.exchange === "SH" || symbol.exchange === "SZ" || symbol.exchange === "BJ") return symbol.exchange;
  const cls = classifyAShareCode(symbol.code);
  return cls.type === "stock" ? cls.exchange : null;
}

/** A registered index's own symbol at a provider (the registry is data; no branches per index here). */
export function indexProviderSymbol(symbol: TMarketSymbol, provider: keyof TIndexProviderSymbols): string | null {
  const entry = getIndexEntry(symbol.canonicalId ?? symbol.code);
  return entry?.providers[provider] ?? null;
}

/** Round away binary noise from arithmetic on prices (0.1 + 0.2) without losing real precision. */
export function round(value: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
