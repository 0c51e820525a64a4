import { getSettings } from "@/lib/settings/settings";
import { configuredChain } from "./providers/chain";
import { isLocalSource } from "./source-family";
import type { MarketDataProvider, TMarketSymbol } from "./providers/types";

// Whether the configured network providers answer at all. A first run offline otherwise learns it only from a
// failed analysis; the home banner and the setup status ask here instead. One quote each on a well-known stock the
// provider serves, no retries, a short deadline; remembered for a minute (per source list), so every page may ask.

const PROBE_TIMEOUT_MS = 4000;
const REMEMBER_MS = 60_000;

// One liquid stock per market, so a provider's answer says nothing about a particular code.
const PROBE_SYMBOLS: readonly TMarketSymbol[] = [
  { kind: "stock", market: "cn", code: "600519", exchange: "SH" },
  { kind: "stock", market: "us", code: "AAPL" },
  { kind: "stock", market: "hk", code: "00700" },
];

export interface ProviderReach {
  provider: string;
  ok: boolean;
  /** Why it failed ("network error: fetch failed", "timeout after 4000 ms"); null when it answered. */
  reason: string | null;
}

export interface Reachability {
  /** The configured network providers in order, each with its probe's outcome. */
  network: ProviderReach[];
  /** Configured sources that read local data (sample, csv). */
  offline: string[];
  /** Every configured network provider failed and no sample data stands in: analyses of most stocks will fail. */
  unreachable: boolean;
  checkedAt: Date;
}

async function probe(provider: MarketDataProvider, timeoutMs: number): Promise<ProviderReach> {
  const symbol = PROBE_SYMBOLS.find((s) => provider.serves(s));
  if (!symbol) return { provider: provider.name, ok: false, reason: "serves none of the probe stocks" };
  try {
    const quote = await provider.quote(symbol, { signal: AbortSignal.timeout(timeoutMs) });
    return quote
      ? { provider: provider.name, ok: true, reason: null }
      : { provider: provider.name, ok: false, reason: "empty" };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    const reason = timedOut ? `timeout after ${timeoutMs} ms` : error instanceof Error ? error.message : String(error);
    return { provider: provider.name, ok: false, reason };
  }
}

async function measure(): Promise<Reachability> {
  const chain = configuredChain();
  const timeoutMs = Math.min(chain.timeoutMs, PROBE_TIMEOUT_MS);
  const network = chain.providers.filter((p): p is MarketDataProvider => !("unknown" in p) && !isLocalSource(p.name));
  const offline = getSettings().MARKET_DATA_SOURCES.filter(isLocalSource);
  const results = await Promise.all(network.map((p) => probe(p, timeoutMs)));
  return {
    network: results,
    offline,
    unreachable: results.length > 0 && results.every((r) => !r.ok) && !offline.includes("sample"),
    checkedAt: new Date(),
  };
}

let memo: { key: string; at: number; result: Promise<Reachability> } | null = null;

/** The providers' reachability, measured at most once a minute for the current source list. */
export function marketDataReachability(): Promise<Reachability> {
  const key = getSettings().MARKET_DATA_SOURCES.join(",");
  const nowMs = Date.now();
  if (memo && memo.key === key && nowMs - memo.at < REMEMBER_MS) return memo.result;
  const result = measure();
  memo = { key, at: nowMs, result };
  return result;
}

/** Forget the last measurement (tests; a settings change re-keys the memo by itself). */
export function resetReachability(): void {
  memo = null;
}
