import { getSettings } from "@/lib/settings/settings";
import { builtInProviders } from "@/lib/market/providers/chain";
import { healthSince, healthState, providerHealth, type HealthCell } from "@/lib/market/providers/health";
import { PROVIDER_NAMES } from "@/lib/market/providers/types";
import { NEWS_KEY_SETTINGS, NEWS_PROVIDER_ORDER, newsProviderKeys } from "@/lib/news/search";
import { providerCapability } from "./capabilities";
import type { TDataSourceItem, TDataSourcesStatus } from "./schemas";

// GET /system/data-sources/status (CONTRACT §14.2): each market-data provider and news search provider, whether the
// settings switch it on, and per market how its calls went in this process.

const NEWS_LABELS: Record<string, string> = {
  bocha: "Bocha",
  tavily: "Tavily",
  brave: "Brave Search",
  serpapi: "SerpApi",
};

export function circuitOf(cells: HealthCell[], provider: string) {
  const mine = cells.filter((c) => c.provider === provider);
  const markets = [...new Set(mine.map((c) => c.market))].sort();
  return markets.map((market) => {
    // A market's state joins its datasets: the most recent outcome of any of them decides.
    const own = mine.filter((c) => c.market === market);
    const latest = own.reduce((a, b) => (lastCall(b) > lastCall(a) ? b : a));
    const success =
      own
        .map((c) => c.lastSuccessAt)
        .filter((v): v is string => v !== null)
        .sort()
        .at(-1) ?? null;
    const failure =
      own
        .map((c) => c.lastFailureAt)
        .filter((v): v is string => v !== null)
        .sort()
        .at(-1) ?? null;
    return {
      market,
      state: healthState(latest),
      last_success_at: success,
      last_failure_at: failure,
      last_error: failure === null ? null : (own.find((c) => c.lastFailureAt === failure)?.lastError ?? null),
      consecutive_failures: latest.consecutiveFailures,
    };
  });
}

const lastCall = (c: HealthCell) => [c.lastSuccessAt ?? "", c.lastFailureAt ?? ""].sort().at(-1)!;

function detailOf(item: Omit<TDataSourceItem, "detail">): string {
  if (item.status === "not_configured")
    return item.kind === "search" ? `Set ${item.config_keys[0]} to use it` : "Not listed in MARKET_DATA_SOURCES";
  const failing = item.circuit.filter((c) => c.state === "failing");
  if (failing.length > 0)
    return `Failing for ${failing.map((c) => c.market).join(", ")}: ${failing[0]!.last_error ?? "failed"}`;
  if (item.circuit.length === 0) return "Not called since the service started";
  return "Answering";
}

export function dataSourcesStatus(): TDataSourcesStatus {
  const settings = getSettings();
  const cells = providerHealth();
  const providers = builtInProviders();
  const listed = settings.MARKET_DATA_SOURCES;
  const marketData: TDataSourceItem[] = PROVIDER_NAMES.map((name) => {
    const capability = providerCapability(providers[name]);
    const priority = listed.indexOf(name);
    const item = {
      source_id: name,
      name: capability.name,
      kind: "market_data" as const,
      status: priority >= 0 ? ("active" as const) : ("not_configured" as const),
      requires_credentials: capability.requires_credentials,
      markets: capability.markets,
      config_keys: capability.config_keys,
      priority: priority >= 0 ? priority + 1 : null,
      circuit: circuitOf(cells, name),
    };
    return { ...item, detail: detailOf(item) };
  });
  // A configured name this build has no provider for is shown, so the setting's typo is visible.
  for (const [index, name] of listed.entries()) {
    if ((PROVIDER_NAMES as readonly string[]).includes(name)) continue;
    marketData.push({
      source_id: name,
      name,
      kind: "market_data",
      status: "active",
      requires_credentials: false,
      markets: [],
      config_keys: ["MARKET_DATA_SOURCES"],
      priority: index + 1,
      circuit: [],
      detail: "Listed in MARKET_DATA_SOURCES, but this build has no such provider: it is skipped",
    });
  }
  const keys = newsProviderKeys(settings);
  const search: TDataSourceItem[] = NEWS_PROVIDER_ORDER.map((name, index) => {
    const item = {
      source_id: name,
      name: NEWS_LABELS[name] ?? name,
      kind: "search" as const,
      status: keys[name].length > 0 ? ("active" as const) : ("not_configured" as const),
      requires_credentials: true,
      markets: [],
      config_keys: [NEWS_KEY_SETTINGS[name]],
      priority: index + 1,
      circuit: [],
    };
    return { ...item, detail: detailOf(item) };
  });
  return {
    market_data: marketData,
    search,
    summary: {
      market_data_active: marketData.filter((s) => s.status === "active").length,
      market_data_total: marketData.length,
      search_active: search.filter((s) => s.status === "active").length,
      search_total: search.length,
    },
    since: healthSince(),
  };
}
