import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { placeholders } from "@/lib/db/raw-sql";
import { lastClosedTradingDay, latestTradingDay, marketDate, weekdaysBetween } from "@/lib/market/market-time";
import {
  bypassesCache,
  chainDailyBars,
  configuredChain,
  type ChainOptions,
  type ProviderAttempt,
} from "@/lib/market/providers/chain";
import { PROVIDER_NAMES, type ProviderName, type TDailyBar, type TMarketSymbol } from "@/lib/market/providers/types";
import { symbolKey } from "@/lib/market/symbol-key";

// Daily bars through the database cache. Only final bars are stored: a bar is final once
// its session has closed (lastClosedTradingDay), so today's bar is neither stored nor returned before the
// close; intraday state comes from the quote. When the cache holds the requested depth and is current up to
// the last closed session, no provider is called; when only the tail is missing, only the tail (plus one
// overlapping bar) is fetched; if the overlapping bar disagrees (a forward adjustment after a dividend or
// a different provider's adjustment), the whole window is fetched again and overwritten.

/** "bypass": a provider holds a user's file for the symbol, read fresh and never stored. */
export type CacheOutcome = "hit" | "tail" | "miss" | "bypass";

export interface DailyBarsResult {
  bars: TDailyBar[];
  /** Provider of the newest bar. */
  source: ProviderName;
  cache: CacheOutcome;
  attempts: ProviderAttempt[];
}

/** The deepest history one call may ask for (about 20 years of sessions). */
export const MAX_DAILY_BARS = 5000;
const PRICE_EPSILON = 1e-6;

// Holidays look like trading days to the weekday calendar; after one fruitless tail fetch for a session,
// the cache is treated as current for that session (per process).
const checkedThrough = new Map<string, string>();

export function clearDailyBarMemo(): void {
  checkedThrough.clear();
}

type Row = Awaited<ReturnType<ReturnType<typeof db>["dailyBar"]["findMany"]>>[number];

function toBar(row: Row): TDailyBar {
  return {
    date: row.tradeDate,
    open: row.open,
    high: row.high,
    low: row.low,
    close: row.close,
    volume: row.volume,
    amount: row.amount,
    turnover_rate: row.turnoverRate,
    source: (PROVIDER_NAMES as readonly string[]).includes(row.source) ? (row.source as ProviderName) : "sample",
  };
}

async function readCached(key: string, days: number, through: string, sources: string[]): Promise<TDailyBar[]> {
  const rows = await db().dailyBar.findMany({
    where: { symbolKey: key, tradeDate: { lte: through }, source: { in: sources } },
    orderBy: { tradeDate: "desc" },
    take: days,
  });
  return rows.reverse().map(toBar);
}

// One multi-row INSERT … ON CONFLICT per chunk instead of a Prisma upsert per bar: a first fetch stores
// hundreds of bars, and per-row upserts (a read and a write each) made that the slowest step of an analysis.
const STORE_CHUNK = 400;
const COLUMNS = [
  "symbol_key",
  "trade_date",
  "open",
  "high",
  "low",
  "close",
  "volume",
  "amount",
  "turnover_rate",
  "source",
  "fetched_at",
];
const UPDATED = COLUMNS.slice(2)
  .map((c) => `"${c}" = excluded."${c}"`)
  .join(", ");

async function store(key: string, bars: TDailyBar[]): Promise<void> {
  if (bars.length === 0) return;
  // Same text form the Prisma SQLite adapter writes for DateTime columns; PostgreSQL reads it as the UTC time.
  const fetchedAt = now().toISOString().replace("Z", "+00:00");
  const statements = [];
  for (let i = 0; i < bars.length; i += STORE_CHUNK) {
    const chunk = bars.slice(i, i + STORE_CHUNK);
    const rows = chunk.map(() => `(${COLUMNS.map(() => "?").join(", ")})`).join(", ");
    const values = chunk.flatMap((b) => [
      key,
      b.date,
      b.open,
      b.high,
      b.low,
      b.close,
      b.volume,
      b.amount,
      b.turnover_rate,
      b.source,
      fetchedAt,
    ]);
    const sql = `INSERT INTO "daily_bar" (${COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES ${rows} ON CONFLICT ("symbol_key", "trade_date") DO UPDATE SET ${UPDATED}`;
    statements.push(db().$executeRawUnsafe(placeholders(sql), ...values));
  }
  await db().$transaction(statements);
}

function samePrice(a: number, b: number): boolean {
  return Math.abs(a - b) <= PRICE_EPSILON * Math.max(1, Math.abs(a));
}

/**
 * The `days` most recent final daily bars of a target, oldest first. Throws MarketDataUnavailableError.
 * `refresh` (analyze's force_refresh) skips the cache read: the whole window is fetched and stored again.
 */
export async function getDailyBars(
  symbol: TMarketSymbol,
  days: number,
  chain: ChainOptions = configuredChain(),
  options: { refresh?: boolean } = {},
): Promise<DailyBarsResult> {
  const want = Math.max(1, Math.min(MAX_DAILY_BARS, Math.floor(days)));
  // A user's file can be replaced at any moment: its bars are neither stored nor served from the database.
  if (await bypassesCache(symbol, chain)) return fetchUncached(symbol, want, chain);
  const key = symbolKey(symbol);
  const at = now();
  const through = lastClosedTradingDay(symbol.market, at);
  if (options.refresh) return fetchWindow(symbol, key, want, through, chain);
  // Only bars of a source the chain lists now: after a switch from the sample data to real providers (or back), the
  // other source's stored bars are never served; the window is fetched again and replaces them.
  const sources = chain.providers.flatMap((p) => ("unknown" in p ? [] : [p.name]));
  const cached = await readCached(key, want, through, sources);
  const newest = cached.at(-1);

  const deepEnough = cached.length >= want;
  if (newest && deepEnough && (newest.date >= through || checkedThrough.get(key) === through)) {
    return { bars: cached, source: newest.source, cache: "hit", attempts: [] };
  }

  if (newest && deepEnough) {
    const missing = weekdaysBetween(newest.date, latestTradingDay(symbol.market, at));
    const tail = await chainDailyBars(symbol, missing + 1, chain);
    const overlap = tail.data.find((b) => b.date === newest.date);
    if (overlap && samePrice(overlap.close, newest.close)) {
      const fresh = tail.data.filter((b) => b.date > newest.date && b.date <= through);
      await store(key, fresh);
      if (fresh.length === 0) checkedThrough.set(key, through);
      const bars = [...cached, ...fresh].slice(-want);
      return { bars, source: bars.at(-1)!.source, cache: "tail", attempts: tail.attempts };
    }
    // Overlap missing or re-adjusted: fall through to a full refresh of the window.
    const full = await fetchWindow(symbol, key, want, through, chain);
    return { ...full, attempts: [...tail.attempts, ...full.attempts] };
  }

  return fetchWindow(symbol, key, want, through, chain);
}

/**
 * Bars to ask a provider for so that `want` final bars remain once the ones after `through` are dropped: a partial
 * bar for today, and bars a provider gives for weekdays our calendar does not trade (the day after a holiday, the
 * sample series has a bar for the holiday itself).
 */
function withUnclosedDays(symbol: TMarketSymbol, want: number, through: string): number {
  return want + 1 + weekdaysBetween(through, marketDate(symbol.market, now()));
}

async function fetchWindow(
  symbol: TMarketSymbol,
  key: string,
  want: number,
  through: string,
  chain: ChainOptions,
): Promise<DailyBarsResult> {
  const result = await chainDailyBars(symbol, withUnclosedDays(symbol, want, through), chain);
  const final = result.data.filter((b) => b.date <= through);
  await store(key, final);
  checkedThrough.delete(key);
  const bars = final.slice(-want);
  return { bars, source: bars.at(-1)?.source ?? result.source, cache: "miss", attempts: result.attempts };
}

async function fetchUncached(symbol: TMarketSymbol, want: number, chain: ChainOptions): Promise<DailyBarsResult> {
  const through = lastClosedTradingDay(symbol.market, now());
  const result = await chainDailyBars(symbol, withUnclosedDays(symbol, want, through), chain);
  // A file's rows are taken as they are: the user decides what the series holds. A live provider that
  // answered ahead of the file keeps the usual rule (no partial bar for today).
  const rows = result.source === "csv" ? result.data : result.data.filter((b) => b.date <= through);
  const bars = rows.slice(-want);
  return { bars, source: bars.at(-1)?.source ?? result.source, cache: "bypass", attempts: result.attempts };
}
