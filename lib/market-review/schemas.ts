import { z } from "zod";

// The market review's structured payload (issue 5 item 8): what the status endpoint returns as
// market_review_payload and what the share image's market card reads (reference: traffic-light score,
// a few indices, breadth, leading/lagging sectors, plan, risks). Stored inside the history record's
// raw_result, so a review can be re-served long after its task left the queue.

/** CONTRACT.md §7: cn, hk, us, or both (= cn + us, as in the reference). */
export const MARKET_REVIEW_REGIONS = ["cn", "hk", "us", "both"] as const;
export const ZMarketReviewRegion = z.enum(MARKET_REVIEW_REGIONS);
export type TMarketReviewRegion = z.infer<typeof ZMarketReviewRegion>;

const ZMarket = z.enum(["cn", "hk", "us"]);
const pct = z.number().finite();
const count = z.number().int().nonnegative();

export const ZReviewIndex = z.object({
  canonical_id: z.string(),
  display_code: z.string(),
  /** In the review's language. */
  name: z.string(),
  price: z.number().finite().nullable(),
  change: z.number().finite().nullable(),
  change_pct: pct.nullable(),
  source: z.string().nullable(),
  /** Why there is no quote, else null. */
  error: z.string().nullable(),
});

export const ZReviewBreadth = z.object({
  advancers: count,
  decliners: count,
  flat: count,
  total: count,
  /** advancers / total in percent (one decimal); null when total is 0. */
  advance_pct: pct.nullable(),
  limit_up: count.nullable(),
  limit_down: count.nullable(),
  universe: z.string(),
  source: z.string(),
});

export const ZReviewSector = z.object({ code: z.string(), name: z.string(), change_pct: pct });

/** One part of the temperature: its measured value, the points it earned and the most it could earn. */
export const ZTemperatureComponent = z.object({
  region: ZMarket,
  key: z.enum(["index", "breadth", "limit"]),
  label: z.string(),
  value: z.number().finite(),
  points: z.number().finite(),
  max: z.number().finite(),
});

export const ZTemperature = z.object({
  /** 0–100; null when no component could be measured. */
  score: z.number().int().min(0).max(100).nullable(),
  level: z.enum(["hot", "warm", "neutral", "cool", "cold"]).nullable(),
  label: z.string().nullable(),
  /** Traffic light of the share card: green (go) from 60, yellow 40–59, red below 40. */
  light: z.enum(["green", "yellow", "red"]).nullable(),
  components: z.array(ZTemperatureComponent),
});

export const ZReviewMarket = z.object({
  region: ZMarket,
  label: z.string(),
  /** Exchange-local date of the index quotes (YYYY-MM-DD), else null. */
  trade_date: z.string().nullable(),
  as_of: z.string(),
  source: z.string().nullable(),
  indices: z.array(ZReviewIndex),
  index_stats: z.object({
    up: count,
    down: count,
    flat: count,
    /** Plain mean of the quoted indices' change_pct (two decimals); null when none is quoted. */
    avg_change_pct: pct.nullable(),
  }),
  breadth: ZReviewBreadth.nullable(),
  breadth_note: z.string().nullable(),
  sectors: z.object({ leaders: z.array(ZReviewSector), laggards: z.array(ZReviewSector), source: z.string() }).nullable(),
  sectors_note: z.string().nullable(),
  temperature: ZTemperature,
});

export const ZReviewNews = z.object({
  title: z.string(),
  url: z.string(),
  source: z.string().nullable(),
  published_at: z.string().nullable(),
  region: ZMarket,
});

export const ZMarketReviewPayload = z
  .object({
    version: z.literal(1),
    region: ZMarketReviewRegion,
    regions: z.array(ZMarket).min(1),
    language: z.enum(["zh", "en"]),
    title: z.string(),
    generated_at: z.string(),
    /** Who wrote the review text: the model, or the rules (no LLM configured, or the LLM failed). */
    engine: z.enum(["llm", "rules"]),
    model: z.string().nullable(),
    data_source: z.string().nullable(),
    is_sample_data: z.boolean(),
    /** The sample-data notice in the review's language when the sample provider served any part. */
    sample_notice: z.string().nullable(),
    summary: z.string(),
    temperature: ZTemperature,
    markets: z.array(ZReviewMarket).min(1),
    news: z.array(ZReviewNews),
    outlook: z.object({
      stance: z.enum(["offensive", "balanced", "defensive", "unknown"]),
      label: z.string(),
      text: z.string(),
      /** The rules that decided the stance and the notes that fired, in words. */
      rules: z.array(z.string()),
    }),
    risks: z.array(z.string()),
    disclaimer: z.string(),
  })
  .meta({ id: "MarketReviewPayload" });

export type TReviewIndex = z.infer<typeof ZReviewIndex>;
export type TReviewBreadth = z.infer<typeof ZReviewBreadth>;
export type TTemperature = z.infer<typeof ZTemperature>;
export type TTemperatureComponent = z.infer<typeof ZTemperatureComponent>;
export type TReviewMarket = z.infer<typeof ZReviewMarket>;
export type TReviewNews = z.infer<typeof ZReviewNews>;
export type TMarketReviewPayload = z.infer<typeof ZMarketReviewPayload>;
