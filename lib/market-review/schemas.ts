import { z } from "zod";

// The market review's structured payload in the shape of docs/api.md §12.3: what the status
// endpoint returns as market_review_payload, what the history detail serves as
// details.context_snapshot.market_review_payload (the reference's client reads both), and what the share card
// and the Market page read. Stored in the record's context snapshot, so a review is re-served long after its
// task left the queue. Version 1 (before §12.3) lived in raw_result; readers still find it there.

/** docs/api.md §7: cn, hk, us, or both (= cn + us, as in the reference). */
export const MARKET_REVIEW_REGIONS = ["cn", "hk", "us", "both"] as const;
export const ZMarketReviewRegion = z.enum(MARKET_REVIEW_REGIONS);
export type TMarketReviewRegion = z.infer<typeof ZMarketReviewRegion>;

export const ZMarket = z.enum(["cn", "hk", "us"]);
const pct = z.number().finite();
const count = z.number().int().nonnegative();

export const ZReviewIndex = z.object({
  canonical_id: z.string(),
  /** The display code (docs/api.md §12.3 reads it as the row key). */
  code: z.string(),
  /** In the review's language. */
  name: z.string(),
  /** Last price; null when no provider quoted the index. */
  current: z.number().finite().nullable(),
  change: z.number().finite().nullable(),
  /** Percent, not a fraction (1.5 = 1.5 %). */
  change_pct: pct.nullable(),
  open: z.number().finite().nullable(),
  high: z.number().finite().nullable(),
  low: z.number().finite().nullable(),
  volume: z.number().finite().nullable(),
  amount: z.number().finite().nullable(),
  /** (high − low) ÷ previous close × 100, when all three are known. */
  amplitude: pct.nullable(),
  source: z.string().nullable(),
  /** Why there is no quote, else null. */
  error: z.string().nullable(),
});

export const ZReviewBreadth = z.object({
  up_count: count,
  down_count: count,
  flat_count: count,
  total: count,
  /** up_count / total in percent (one decimal); null when total is 0. */
  advance_pct: pct.nullable(),
  limit_up_count: count.nullable(),
  limit_down_count: count.nullable(),
  /** Turnover of the counted stocks in `turnover_unit`; null when no provider reports it. */
  total_amount: z.number().finite().nonnegative().nullable(),
  turnover_unit: z.string().nullable(),
  universe: z.string(),
  source: z.string(),
});

export const ZReviewSector = z.object({ code: z.string(), name: z.string(), change_pct: pct });

export const ZReviewSectors = z.object({
  top: z.array(ZReviewSector),
  bottom: z.array(ZReviewSector),
  source: z.string(),
});

/** One part of the temperature: its measured value, the points it earned and the most it could earn. */
export const ZTemperatureComponent = z.object({
  region: ZMarket,
  key: z.enum(["index", "breadth", "limit"]),
  label: z.string(),
  value: z.number().finite(),
  points: z.number().finite(),
  max: z.number().finite(),
});

/** The market temperature (served as `market_light`): a 0–100 score, its level and traffic light, and its parts. */
export const ZTemperature = z.object({
  /** 0–100; null when no component could be measured. */
  score: z.number().int().min(0).max(100).nullable(),
  level: z.enum(["hot", "warm", "neutral", "cool", "cold"]).nullable(),
  label: z.string().nullable(),
  /** Traffic light of the share card: green (go) from 60, yellow 40–59, red below 40. */
  light: z.enum(["green", "yellow", "red"]).nullable(),
  components: z.array(ZTemperatureComponent),
});

export const ZReviewNews = z.object({
  title: z.string(),
  url: z.string(),
  source: z.string().nullable(),
  published_at: z.string().nullable(),
  region: ZMarket,
});

/** A titled Markdown part of the review (docs/api.md §12.3 `sections[]`: each renders as a card). */
export const ZReviewSection = z.object({ key: z.string(), title: z.string(), markdown: z.string() });

export const ZIndexStats = z.object({
  up: count,
  down: count,
  flat: count,
  /** Plain mean of the quoted indices' change_pct (two decimals); null when none is quoted. */
  avg_change_pct: pct.nullable(),
});

// docs/api.md §12.3: the payload is recursive. A review of one region carries its indices, breadth, sectors and
// sections at the top; a review of several has them per region under `markets` (region → the same shape) and
// none at the top, so no figure is stored twice.
const regionFields = {
  version: z.literal(2),
  kind: z.literal("market_review"),
  language: z.enum(["zh", "en"]),
  /** A region's label ("A股", "US") or the review's title at the top. */
  title: z.string(),
  generated_at: z.string(),
  /** Exchange-local date of the index quotes (YYYY-MM-DD), else null. */
  date: z.string().nullable(),
  /** The regions covered, comma separated ("cn", "cn,us"). */
  market_scope: z.string(),
  market_light: ZTemperature,
  breadth: ZReviewBreadth.nullable(),
  breadth_note: z.string().nullable(),
  indices: z.array(ZReviewIndex),
  index_stats: ZIndexStats,
  sectors: ZReviewSectors.nullable(),
  sectors_note: z.string().nullable(),
  news: z.array(ZReviewNews),
  sections: z.array(ZReviewSection),
  /** The region's label in the review's language. */
  label: z.string(),
  as_of: z.string(),
  source: z.string().nullable(),
};

export const ZReviewMarket = z.object({ ...regionFields, region: ZMarket }).meta({ id: "MarketReviewRegionPayload" });

export const ZMarketReviewPayload = z
  .object({
    ...regionFields,
    region: ZMarketReviewRegion,
    regions: z.array(ZMarket).min(1),
    /** The page title (the client prefers it to `title`). */
    root_title: z.string(),
    /** Who wrote the review text: the model, or the rules (no LLM configured, or the LLM failed). */
    engine: z.enum(["llm", "rules"]),
    model: z.string().nullable(),
    data_source: z.string().nullable(),
    is_sample_data: z.boolean(),
    /** The sample-data notice in the review's language when the sample provider served any part. */
    sample_notice: z.string().nullable(),
    summary: z.string(),
    /** Present when the review covers more than one region. */
    markets: z.partialRecord(ZMarket, ZReviewMarket).optional(),
    outlook: z.object({
      stance: z.enum(["offensive", "balanced", "defensive", "unknown"]),
      label: z.string(),
      text: z.string(),
      /** The rules that decided the stance and the notes that fired, in words. */
      rules: z.array(z.string()),
    }),
    risks: z.array(z.string()),
    disclaimer: z.string(),
    /** The whole standalone review in Markdown (title, body, disclaimer). */
    markdown_report: z.string(),
  })
  .meta({ id: "MarketReviewPayload" });

export type TReviewIndex = z.infer<typeof ZReviewIndex>;
export type TReviewBreadth = z.infer<typeof ZReviewBreadth>;
export type TTemperature = z.infer<typeof ZTemperature>;
export type TTemperatureComponent = z.infer<typeof ZTemperatureComponent>;
export type TReviewMarket = z.infer<typeof ZReviewMarket>;
export type TReviewSection = z.infer<typeof ZReviewSection>;
export type TReviewSectors = z.infer<typeof ZReviewSectors>;
export type TIndexStats = z.infer<typeof ZIndexStats>;
export type TReviewNews = z.infer<typeof ZReviewNews>;
export type TMarketReviewPayload = z.infer<typeof ZMarketReviewPayload>;
