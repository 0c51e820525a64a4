import { getSettings } from "@/lib/settings/settings";
import { isLocalSource } from "@/lib/market";
import { healthSince, providerHealth, type HealthCell } from "@/lib/market/providers/health";
import { dataCapabilities } from "./capabilities";
import { DATA_MARKETS, DATASETS, type TDataOverview, type TDatasetState, type TProviderCapability } from "./schemas";
import { storedBarsByMarket, type StoredBars } from "./stored-bars";

// GET /data/overview and the Data page: per market and dataset, the configured route, how its sources answered in
// this process, and the bars stored; per provider its place in the chain and state; the warnings a trader acts on.

/** Stored bars not refreshed for this long, with no call since the start, are stale. */
const STALE_DAYS = 7;

const succeededLast = (c: HealthCell) => c.lastSuccessAt !== null && (c.lastFailureAt ?? "") <= c.lastSuccessAt;
const newest = (values: (string | null | undefined)[]) =>
  values
    .filter((v): v is string => typeof v === "string")
    .sort()
    .at(-1) ?? null;

function routeOf(dataset: (typeof DATASETS)[number], market: string, listed: TProviderCapability[]): string[] {
  return listed
    .filter((p) =>
      dataset === "fx"
        ? p.datasets.includes("fx")
        : p.markets.includes(market as never) || p.index_markets.includes(market as never),
    )
    .map((p) => p.provider);
}

function datasetState(
  dataset: (typeof DATASETS)[number],
  market: string,
  route: string[],
  cells: HealthCell[],
  stored: StoredBars | undefined,
  now: Date,
): TDatasetState {
  const mine = route.map((p) => cells.find((c) => c.provider === p && c.market === market && c.dataset === dataset));
  const called = mine.filter((c): c is HealthCell => c !== undefined);
  const lastSuccess = newest(called.map((c) => c.lastSuccessAt));
  const storedAt = dataset === "daily_bars" ? (stored?.lastFetchedAt ?? null) : null;
  let status: TDatasetState["status"];
  if (route.length === 0) status = "unconfigured";
  else if (called.length === 0) {
    const old = storedAt !== null && now.getTime() - Date.parse(storedAt) > STALE_DAYS * 86_400_000;
    status = old ? "stale" : "unknown";
  } else if (mine[0] && succeededLast(mine[0])) status = "ok";
  else if (called.some(succeededLast)) status = "degraded";
  else status = "unavailable";
  const current =
    called.filter((c) => c.lastSuccessAt === lastSuccess && lastSuccess !== null)[0]?.provider ??
    (dataset === "daily_bars" && stored
      ? ([...stored.bySource].sort((a, b) => (a[1] < b[1] ? 1 : -1))[0]?.[0] ?? null)
      : null);
  return {
    dataset,
    market,
    status,
    route,
    current_source: current,
    last_success_at: newest([lastSuccess, storedAt]),
    stored: dataset === "daily_bars" ? { symbols: stored?.symbols ?? 0, last_fetched_at: storedAt } : null,
    diagnostics: called.filter((c) => !succeededLast(c)).map((c) => `${c.provider}: ${c.lastError ?? "failed"}`),
  };
}

function providerStatus(enabled: boolean, cells: HealthCell[]): TDataOverview["providers"][number]["status"] {
  if (!enabled) return "unconfigured";
  if (cells.length === 0) return "unknown";
  const ok = cells.filter(succeededLast).length;
  if (ok === cells.length) return "ok";
  return ok === 0 ? "unavailable" : "degraded";
}

export async function dataOverview(now: Date = new Date()): Promise<TDataOverview> {
  const listedNames = getSettings().MARKET_DATA_SOURCES;
  const capabilities = dataCapabilities().providers;
  const listed = listedNames
    .map((name) => capabilities.find((c) => c.provider === name))
    .filter((c): c is TProviderCapability => c !== undefined);
  const cells = providerHealth();
  const stored = await storedBarsByMarket();
  const datasets: TDatasetState[] = [];
  for (const market of DATA_MARKETS)
    for (const dataset of ["daily_bars", "quote"] as const)
      datasets.push(datasetState(dataset, market, routeOf(dataset, market, listed), cells, stored.get(market), now));
  datasets.push(datasetState("fx", "fx", routeOf("fx", "fx", listed), cells, undefined, now));

  const warnings: string[] = [];
  if (listed.length > 0 && listed.every((p) => isLocalSource(p.provider))) warnings.push("no_network_source");
  if (listedNames.includes("sample")) warnings.push("sample_data_in_chain");
  for (const name of listedNames)
    if (!capabilities.some((c) => c.provider === name)) warnings.push(`unknown_source:${name}`);
  if (datasets.some((d) => d.status === "unavailable")) warnings.push("dataset_unavailable");
  if (!listed.some((p) => p.datasets.includes("fx"))) warnings.push("no_fx_source");

  return {
    generated_at: now.toISOString(),
    since: healthSince(),
    providers: capabilities.map((c) => {
      const priority = listedNames.indexOf(c.provider);
      return {
        provider: c.provider,
        name: c.name,
        enabled: priority >= 0,
        configured: true,
        status: providerStatus(
          priority >= 0,
          cells.filter((cell) => cell.provider === c.provider),
        ),
        priority: priority >= 0 ? priority + 1 : null,
        dataset_markets: Object.fromEntries(
          c.datasets.map((d) => [d, d === "fx" ? ["fx"] : [...new Set([...c.markets, ...c.index_markets])]]),
        ),
      };
    }),
    datasets,
    routes: datasets.map((d) => ({ scenario: `${d.market}.${d.dataset}`, providers: d.route })),
    warning_codes: warnings,
  };
}
