import { z } from "zod";
import { ApiError } from "@/lib/errors/api-error";
import { configuredChain } from "@/lib/market/providers/chain";
import { assertScreeningEnabled } from "./status";

// Hot sectors (industry and concept boards) need a board list from a provider: Eastmoney serves one, but no reply of
// it has been recorded, and DSA reads a provider only through code tested on its recorded replies. Until one is, the
// hotspot calls answer the reference client's shape with no boards and say why per source, as the market overview
// does for its sector rankings, so a client shows "no hot sectors" instead of failing.

export const ZHotspotsQuery = z.object({
  provider: z.string().trim().max(40).optional(),
  top: z.coerce.number().int().min(1).max(50).default(10),
  refresh: z.stringbool().default(false),
  include_details: z.stringbool().default(false),
});

const ZHotspotStock = z.object({
  code: z.string(),
  name: z.string(),
  change_pct: z.number().nullable(),
  amount: z.number().nullable(),
  turnover_rate: z.number().nullable(),
  volume_ratio: z.number().nullable(),
  role: z.string(),
  hot_stock_score: z.number().nullable(),
  source: z.string(),
});

const ZHotspot = z.object({
  topic: z.string(),
  name: z.string(),
  source: z.string(),
  rank: z.number().int(),
  change_pct: z.number().nullable(),
  heat_score: z.number().nullable(),
  trend_score: z.number().nullable(),
  persistence_score: z.number().nullable(),
  cooling_score: z.number().nullable(),
  state: z.string(),
  stage: z.string(),
  sample_stock_count: z.number().int(),
  leaders: z.array(z.string()),
  leader_stocks: z.array(ZHotspotStock),
  quality_status: z.string(),
});

export const ZHotspotsResponse = z
  .object({
    enabled: z.boolean(),
    provider: z.string().describe("The provider asked for, else auto"),
    provider_used: z.string().nullable().describe("The source the boards came from; null when none could serve them"),
    fallback_used: z.boolean(),
    cache_used: z.boolean(),
    cached_at: z.string().nullable(),
    stale: z.boolean(),
    stale_age_hours: z.number().nullable(),
    message: z.string(),
    source_errors: z.array(z.string()).describe("Why each source in the chain gave no boards"),
    hotspots: z.array(ZHotspot),
    hotspot_count: z.number().int(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "ScreeningHotspotsResponse" });
export type THotspotsResponse = z.infer<typeof ZHotspotsResponse>;

export const ZHotspotParams = z.object({ topic: z.string().trim().min(1).max(80) });

export const ZHotspotDetail = z
  .object({
    enabled: z.boolean(),
    topic: z.string(),
    name: z.string(),
    canonical_topic: z.string(),
    aliases: z.array(z.string()),
    summary: z.string(),
    route: z.array(
      z.object({ title: z.string(), description: z.string(), source: z.string(), date: z.string(), url: z.string() }),
    ),
    timeline: z.array(z.unknown()),
    stocks: z.array(ZHotspotStock),
    leader_stocks: z.array(ZHotspotStock),
    stock_count: z.number().int(),
    quality_status: z.string(),
    stale: z.boolean(),
    cache_used: z.boolean(),
  })
  .meta({ id: "ScreeningHotspotDetail" });

export const HOTSPOTS_UNAVAILABLE =
  "No hot-sector source is available: industry and concept boards are not served yet.";

function sourceErrors(): string[] {
  const names = configuredChain().providers.map((p) => ("unknown" in p ? p.unknown : p.name));
  if (names.length === 0) return ["no market-data provider configured"];
  return names.map((name) => {
    if (name === "eastmoney") return "eastmoney: no recorded board-list reply, not implemented";
    if (name === "sample") return "sample: the sample catalogue has no sectors";
    if (name === "csv") return "csv: daily bars carry no sectors";
    return `${name}: has no sector boards`;
  });
}

export function hotspots(query: z.infer<typeof ZHotspotsQuery>): THotspotsResponse {
  assertScreeningEnabled();
  return {
    enabled: true,
    provider: query.provider ?? "auto",
    provider_used: null,
    fallback_used: false,
    cache_used: false,
    cached_at: null,
    stale: false,
    stale_age_hours: null,
    message: HOTSPOTS_UNAVAILABLE,
    source_errors: sourceErrors(),
    hotspots: [],
    hotspot_count: 0,
    details: {},
  };
}

/** No board is served, so every topic is unknown. */
export function hotspot(topic: string): never {
  assertScreeningEnabled();
  throw ApiError.of("not_found", `No hot sector "${topic}": ${HOTSPOTS_UNAVAILABLE}`, {
    reason_code: "hotspot_not_found",
  });
}
