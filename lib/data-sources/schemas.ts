import { z } from "zod";

// Where the market data comes from and how it is going (CONTRACT §14.2): the providers' capability tables (read
// off the providers themselves), the configured route per market and dataset, how this process's calls went and
// the stored bars' fetch history.

export const DATASETS = ["daily_bars", "quote", "fx"] as const;
export const DATA_MARKETS = ["cn", "hk", "us"] as const;
export const HEALTH_STATES = ["ok", "failing", "unknown"] as const;
export const DATASET_STATUSES = [
  "ok",
  "degraded",
  "partial",
  "unconfigured",
  "unavailable",
  "unknown",
  "stale",
] as const;

const ZCircuit = z.object({
  market: z.string().describe("cn, hk, us, or fx for exchange rates"),
  state: z
    .enum(HEALTH_STATES)
    .describe("ok; failing after 3 failed calls in a row; unknown: not called since the start (no circuit breaker)"),
  last_success_at: z.string().nullable(),
  last_failure_at: z.string().nullable(),
  last_error: z.string().nullable().describe("The last failure's reason, credentials masked"),
  consecutive_failures: z.number().int(),
});

export const ZDataSourceItem = z.object({
  source_id: z.string(),
  name: z.string(),
  kind: z.enum(["market_data", "search"]),
  status: z.enum(["active", "not_configured"]),
  requires_credentials: z.boolean(),
  markets: z.array(z.string()),
  config_keys: z.array(z.string()),
  detail: z.string(),
  priority: z.number().int().nullable().describe("Place in MARKET_DATA_SOURCES (1 first); null when not listed"),
  circuit: z.array(ZCircuit),
});
export type TDataSourceItem = z.infer<typeof ZDataSourceItem>;

export const ZDataSourcesStatus = z
  .object({
    market_data: z.array(ZDataSourceItem),
    search: z.array(ZDataSourceItem),
    summary: z.object({
      market_data_active: z.number().int(),
      market_data_total: z.number().int(),
      search_active: z.number().int(),
      search_total: z.number().int(),
    }),
    since: z.string().describe("The call history covers this process since this instant"),
  })
  .meta({ id: "DataSourcesStatus" });
export type TDataSourcesStatus = z.infer<typeof ZDataSourcesStatus>;

export const ZProviderCapability = z.object({
  provider: z.string(),
  name: z.string(),
  kind: z.enum(["network", "local"]),
  markets: z.array(z.enum(DATA_MARKETS)).describe("Markets whose stocks it serves"),
  index_markets: z.array(z.enum(DATA_MARKETS)).describe("Markets whose registered indices it serves"),
  datasets: z.array(z.enum(DATASETS)),
  realtime: z.boolean().describe("Its quote is the exchange's current one (else a close or synthetic)"),
  daily: z.boolean(),
  intraday: z.boolean(),
  requires_credentials: z.boolean(),
  config_keys: z.array(z.string()),
  note: z.string(),
});
export type TProviderCapability = z.infer<typeof ZProviderCapability>;

export const ZDataCapabilities = z.object({ providers: z.array(ZProviderCapability) }).meta({ id: "DataCapabilities" });
export type TDataCapabilities = z.infer<typeof ZDataCapabilities>;

export const ZDatasetState = z.object({
  dataset: z.enum(DATASETS),
  market: z.string().describe("cn, hk, us, or fx"),
  status: z
    .enum(DATASET_STATUSES)
    .describe(
      "ok: the first source answers; degraded: a later one does; unavailable: none does; unconfigured: no source " +
        "serves it; unknown: not asked since the start; stale: not asked since the start and the stored bars are old",
    ),
  route: z.array(z.string()).describe("The configured sources that serve it, in the order they are asked"),
  current_source: z.string().nullable().describe("The source of the last success"),
  last_success_at: z.string().nullable(),
  stored: z
    .object({ symbols: z.number().int(), last_fetched_at: z.string().nullable() })
    .nullable()
    .describe("Daily bars kept in the database for this market (null for other datasets)"),
  diagnostics: z.array(z.string()).describe("Each failing source's last reason, credentials masked"),
});
export type TDatasetState = z.infer<typeof ZDatasetState>;

export const ZDataOverview = z
  .object({
    generated_at: z.string(),
    since: z.string(),
    providers: z.array(
      z.object({
        provider: z.string(),
        name: z.string(),
        enabled: z.boolean().describe("Listed in MARKET_DATA_SOURCES"),
        configured: z.boolean().describe("Usable as set (no provider needs credentials)"),
        status: z.enum(["ok", "degraded", "unavailable", "unknown", "unconfigured"]),
        priority: z.number().int().nullable(),
        dataset_markets: z.record(z.string(), z.array(z.string())),
      }),
    ),
    datasets: z.array(ZDatasetState),
    routes: z.array(z.object({ scenario: z.string(), providers: z.array(z.string()) })),
    warning_codes: z.array(z.string()),
  })
  .meta({ id: "DataOverview" });
export type TDataOverview = z.infer<typeof ZDataOverview>;
