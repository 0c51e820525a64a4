import { z } from "zod";
import type { TExchange, TMarket } from "@/lib/market/symbols";

// What a provider needs to know about a target: the resolved symbol's shape from lib/market/symbols
// (a TResolvedSymbol fits), without the request-only fields.
export interface TMarketSymbol {
  kind: "stock" | "index";
  market: TMarket;
  code: string;
  canonicalId?: string;
  exchange?: TExchange;
}

export const PROVIDER_NAMES = ["eastmoney", "tencent", "yahoo", "sample", "csv"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

const price = z.number().finite().positive();
const amount = z.number().finite().nonnegative();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "trade date YYYY-MM-DD");

// One trading day. Volume is in shares (A-share lots are multiplied by 100), amount in the listing
// currency; either can be null when the provider does not send it. 0 is a real value, never "missing".
export const ZDailyBar = z
  .object({
    date: isoDate,
    open: price,
    high: price,
    low: price,
    close: price,
    volume: amount,
    amount: amount.nullable(),
    turnover_rate: z.number().finite().nonnegative().nullable(),
    source: z.enum(PROVIDER_NAMES),
  })
  .refine((b) => b.high >= b.low, "high below low");

export const ZDailyBars = z.array(ZDailyBar);

// A realtime (or latest) quote. change_pct is the daily change in percent (1.27 = 1.27 %).
export const ZQuote = z.object({
  price,
  change: z.number().finite(),
  change_pct: z.number().finite(),
  volume: amount.nullable(),
  amount: amount.nullable(),
  volume_ratio: z.number().finite().nonnegative().nullable(),
  turnover_rate: z.number().finite().nonnegative().nullable(),
  high: price.nullable(),
  low: price.nullable(),
  open: price.nullable(),
  prev_close: price.nullable(),
  time: z.iso.datetime({ offset: true }),
  name: z.string().optional(),
  source: z.enum(PROVIDER_NAMES),
});

export type TDailyBar = z.infer<typeof ZDailyBar>;
export type TQuote = z.infer<typeof ZQuote>;

export interface CallContext {
  signal: AbortSignal;
}

export interface MarketDataProvider {
  readonly name: ProviderName;
  /** False for a market/kind the provider does not cover: the chain then never calls it. */
  serves(symbol: TMarketSymbol): boolean;
  /** Up to `days` most recent daily bars, oldest first; [] when the provider has none. */
  dailyBars(symbol: TMarketSymbol, days: number, ctx: CallContext): Promise<TDailyBar[]>;
  /** Latest quote, or null when the provider has none for the symbol. */
  quote(symbol: TMarketSymbol, ctx: CallContext): Promise<TQuote | null>;
  /**
   * True when this provider holds data for the symbol that may change under the service at any time (a
   * user's file): the bar and quote caches are then skipped for the symbol, so a replacement counts at once.
   */
  bypassesCache?(symbol: TMarketSymbol): Promise<boolean>;
  /** The latest rate of one unit of `currency` in CNY (portfolio FX refresh); absent when the provider has no FX. */
  fxRate?(currency: string, ctx: CallContext): Promise<TFxRate | null>;
}

/** One unit of a currency in CNY on `date` (the provider's session date), with its source. */
export interface TFxRate {
  rate: number;
  date: string;
  source: string;
}

/** Network error or 5xx: worth a retry with backoff. */
export class TransientProviderError extends Error {
  override name = "TransientProviderError";
}

/** The provider answered, but not with usable data (4xx, malformed body, unknown layout). */
export class ProviderResponseError extends Error {
  override name = "ProviderResponseError";
}

/**
 * A data file the user supplied (CSV data source) exists for the target but cannot be used. Unlike a
 * provider failure this must not fall through to the next source: the user asked for their file's numbers,
 * and silently analysing someone else's would hide the mistake.
 */
export class InvalidDataFileError extends Error {
  override name = "InvalidDataFileError";
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly problem: string,
    /** The problem as a stable code with its values, so a UI can word it in its own language. */
    readonly code: TDataFileProblem,
    readonly params: Readonly<Record<string, string | number>> = {},
  ) {
    super(line === null ? `${file}: ${problem}` : `${file} line ${line}: ${problem}`);
  }
}

export const DATA_FILE_PROBLEMS = [
  "not_a_file",
  "several_files",
  "unreadable_csv",
  "empty_file",
  "no_bars",
  "duplicate_column",
  "missing_columns",
  "not_a_date",
  "empty_cell",
  "not_a_number",
  "negative",
  "not_positive",
  "high_below_low",
  "repeated_date",
] as const;
export type TDataFileProblem = (typeof DATA_FILE_PROBLEMS)[number];
