import { isLocalSource, MarketDataUnavailableError, sampleCatalogueKeys } from "@/lib/market";
import type { FailureReason as BaseReason } from "@/lib/errors/failure-reason";
import type { TResolvedSymbol } from "@/lib/market/symbols";

// Why a run found no market data, as a code and params a UI words in its own language (the error's message stays
// the English text of every attempt). Three cases a trader acts on differently: the network sources cannot be
// reached (switch to local data), only local data was asked and has no file for the code (which codes it has), or a
// source answered without data for the code (a wrong or delisted code).

export interface FailureReason extends BaseReason {
  code: "market_data_unavailable" | "not_in_local_data" | "no_data_for_code";
}

function names(attempts: { provider: string }[]): string {
  return [...new Set(attempts.map((a) => a.provider))].join(", ");
}

/** The sample catalogue's stock codes of one market ("600519, 000001, …"). */
function sampleCodes(market: string): string {
  return sampleCatalogueKeys()
    .filter((key) => key.startsWith(`${market}:`))
    .map((key) => key.slice(market.length + 1))
    .join(", ");
}

export function failureReason(error: unknown, target: TResolvedSymbol): FailureReason {
  const code = target.displayCode;
  if (!(error instanceof MarketDataUnavailableError))
    return { code: "no_data_for_code", params: { code, providers: "" } };
  const asked = error.attempts.filter((a) => !a.ok && !a.reason?.startsWith("does not serve"));
  const network = asked.filter((a) => !isLocalSource(a.provider));
  const unreachable = network.filter((a) => /^(transient|timeout)/.test(a.reason ?? ""));
  if (unreachable.length > 0)
    return { code: "market_data_unavailable", params: { code, providers: names(unreachable) } };
  if (network.length === 0 && asked.length > 0)
    return { code: "not_in_local_data", params: { code, sources: names(asked), samples: sampleCodes(target.market) } };
  return { code: "no_data_for_code", params: { code, providers: names(network) } };
}
