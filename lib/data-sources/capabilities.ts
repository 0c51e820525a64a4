import { isLocalSource } from "@/lib/market";
import { builtInProviders } from "@/lib/market/providers/chain";
import { PROVIDER_NAMES, type MarketDataProvider, type TMarketSymbol } from "@/lib/market/providers/types";
import { listIndexEntries } from "@/lib/market/symbols";
import { DATA_MARKETS, type TDataCapabilities, type TProviderCapability } from "./schemas";

// Each provider's capability table, read off the provider itself: which markets' stocks and indices it says it
// serves (its own serves() on one stock and the registered indices of each market), whether it has FX. What no
// provider method can say (realtime, credentials, settings) is stated here once.

const PROBE_STOCKS: Record<(typeof DATA_MARKETS)[number], TMarketSymbol> = {
  cn: { kind: "stock", market: "cn", code: "600519", exchange: "SH" },
  hk: { kind: "stock", market: "hk", code: "00700" },
  us: { kind: "stock", market: "us", code: "AAPL" },
};

export const PROVIDER_LABELS: Record<string, string> = {
  eastmoney: "Eastmoney",
  tencent: "Tencent",
  yahoo: "Yahoo Finance",
  sample: "Sample data",
  csv: "CSV files",
};

const NOTES: Record<string, string> = {
  eastmoney: "Exchange quotes and daily bars over HTTPS; no key.",
  tencent: "Exchange quotes and daily bars over HTTPS; no key.",
  yahoo: "Quotes, daily bars and exchange rates over HTTPS; no key.",
  sample: "Deterministic offline series; every report from it is labelled sample data.",
  csv: "Your own daily bars, one CSV file per code in CSV_DATA_DIR; the quote is the last bar.",
};

const CONFIG_KEYS: Record<string, string[]> = {
  sample: ["MARKET_DATA_SOURCES", "SAMPLE_LATENCY_MS"],
  csv: ["MARKET_DATA_SOURCES", "CSV_DATA_DIR"],
};

function indexMarkets(provider: MarketDataProvider): (typeof DATA_MARKETS)[number][] {
  return DATA_MARKETS.filter((market) =>
    listIndexEntries()
      .filter((entry) => entry.region === market)
      .some((entry) =>
        provider.serves({ kind: "index", market, code: entry.canonicalId, canonicalId: entry.canonicalId }),
      ),
  );
}

export function providerCapability(provider: MarketDataProvider): TProviderCapability {
  const local = isLocalSource(provider.name);
  return {
    provider: provider.name,
    name: PROVIDER_LABELS[provider.name] ?? provider.name,
    kind: local ? "local" : "network",
    markets: DATA_MARKETS.filter((market) => provider.serves(PROBE_STOCKS[market])),
    index_markets: indexMarkets(provider),
    datasets: provider.fxRate ? ["daily_bars", "quote", "fx"] : ["daily_bars", "quote"],
    realtime: !local,
    daily: true,
    intraday: false,
    requires_credentials: false,
    config_keys: CONFIG_KEYS[provider.name] ?? ["MARKET_DATA_SOURCES", "MARKET_DATA_TIMEOUT_MS"],
    note: NOTES[provider.name] ?? "",
  };
}

export function dataCapabilities(): TDataCapabilities {
  const providers = builtInProviders();
  return { providers: PROVIDER_NAMES.map((name) => providerCapability(providers[name])) };
}
