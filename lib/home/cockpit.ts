import { listAlertTriggers } from "@/lib/alerts/triggers";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { db } from "@/lib/db/client";
import { getPriceSeries } from "@/lib/market";
import { lastClosedTradingDay } from "@/lib/market/market-time";
import { marketOverview } from "@/lib/market/overview";
import {
  dedupKey,
  displayName,
  isRejection,
  resolveToken,
  type TMarket,
  type TResolvedSymbol,
} from "@/lib/market/symbols";
import { listSignals } from "@/lib/signals/read";
import { ZDecisionSignalListQuery } from "@/lib/signals/schemas";
import { localDay, serviceTimeZone, startOfLocalDay } from "@/lib/time/zoned-time";
import { withTimeBudget } from "@/lib/time-budget";

// The home page's cockpit: the watchlist (STOCK_LIST) with each stock's one price, a 30-close
// sparkline and its latest verdict, the indices of the markets in use, open decision signals and today's alert
// triggers, read in one server render. Every market-data read has a time budget: a slow provider leaves its row
// without a price (and says so) instead of holding the page.

export const SPARK_CLOSES = 30;
/** The longest one market-data read may hold the page. Provider caches make later renders fast. */
export const READ_BUDGET_MS = 1500;
/** Index tiles (answer or failure) are reused this long: a page reload must not ask the providers again. */
export const TILES_TTL_MS = 15_000;

export interface WatchRow {
  token: string;
  code: string | null;
  name: string | null;
  market: TMarket | null;
  /** Why the token is not a stock or index (STOCK_LIST may hold anything). */
  invalid: string | null;
  price: number | null;
  changePct: number | null;
  priceDate: string | null;
  priceTime: string | null;
  /** The price's session ended before the market's last closed one: shown as old, never as today's. */
  priceStale: boolean;
  /** This render's read did not answer in time (or failed): the figures are the last ones read, with their time. */
  delayed: boolean;
  closes: number[];
  source: string | null;
  dataError: string | null;
  latest: {
    recordId: number;
    action: string | null;
    score: number | null;
    createdAt: string;
  } | null;
}

export interface IndexTile {
  market: TMarket;
  code: string;
  name: string;
  nameEn: string;
  price: number | null;
  changePct: number | null;
  time: string | null;
  source: string | null;
  error: string | null;
  /** The last tiles read, shown because this render's read did not answer in time. */
  delayed: boolean;
}

export interface BreadthLine {
  market: TMarket;
  advancers: number;
  decliners: number;
  flat: number;
  limitUp: number | null;
  limitDown: number | null;
}

export interface CockpitSignal {
  id: number;
  code: string;
  name: string | null;
  action: string;
  score: number | null;
  entryLow: number | null;
  entryHigh: number | null;
  stopLoss: number | null;
  targetPrice: number | null;
  createdAt: string;
  expiresAt: string | null;
}

export interface CockpitTrigger {
  id: number;
  target: string;
  alertType: string;
  message: string;
  /** What fired, for the UI to word in its own language (the message is the API's English). */
  observedValue: number | null;
  threshold: number | null;
  triggeredAt: string;
}

export interface Cockpit {
  watchlist: WatchRow[];
  markets: TMarket[];
  indices: IndexTile[];
  breadth: BreadthLine[];
  signals: CockpitSignal[];
  triggers: CockpitTrigger[];
  /** Whether any figure on the page comes from sample data, whatever the order of the sources. */
  sampleData: boolean;
  /** Sample data is not the first source: only the figures marked sample are. */
  sampleMixed: boolean;
  timeZone: string;
}

function withBudget<T>(work: Promise<T>, ms = READ_BUDGET_MS): Promise<T> {
  return withTimeBudget(work, ms, (m) => `no answer within ${m / 1000}s`);
}

// The last figures read per stock and per market, kept in this process: under load a read outlasts its budget, and
// the page then shows what it last knew, marked delayed, instead of blanking. A read that lands after the budget
// still updates them. Bounded: the oldest entries go first.
const LAST_KNOWN_MAX = 500;
type PriceFields = Pick<
  WatchRow,
  "name" | "price" | "changePct" | "priceDate" | "priceTime" | "priceStale" | "closes" | "source"
>;
const lastRows = new Map<string, PriceFields>();
const lastOverviews = new Map<string, Awaited<ReturnType<typeof marketOverview>>>();

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > LAST_KNOWN_MAX) map.delete(map.keys().next().value!);
}

/** Keyed by the provider list too: a settings change never shows the other sources' figures. */
function sourcesKey(key: string): string {
  return `${key}|${getSettings().MARKET_DATA_SOURCES.join(",")}`;
}

function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}

function resolveWatchlist(
  tokens: readonly string[],
): { token: string; symbol: TResolvedSymbol | null; invalid: string | null }[] {
  const seen = new Set<string>();
  const out: { token: string; symbol: TResolvedSymbol | null; invalid: string | null }[] = [];
  for (const token of tokens) {
    const resolved = resolveToken(token);
    if (isRejection(resolved)) {
      out.push({ token, symbol: null, invalid: resolved.reason });
      continue;
    }
    const key = dedupKey(resolved);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ token, symbol: resolved, invalid: null });
  }
  return out;
}

/** The latest stored report of each target, by target_key: one grouped read over the [targetKey, id] index. */
async function latestReports(keys: readonly string[]): Promise<Map<string, WatchRow["latest"]>> {
  if (keys.length === 0) return new Map();
  const groups = await db().analysisHistory.groupBy({
    by: ["targetKey"],
    where: { targetKey: { in: [...keys] } },
    _max: { id: true },
  });
  const ids = groups.map((g) => g._max.id).filter((id): id is number => id !== null);
  const rows = ids.length
    ? await db().analysisHistory.findMany({
        where: { id: { in: ids } },
        select: { id: true, targetKey: true, action: true, sentimentScore: true, createdAt: true },
      })
    : [];
  return new Map(
    rows.map((r) => [
      r.targetKey,
      { recordId: r.id, action: r.action, score: r.sentimentScore, createdAt: r.createdAt.toISOString() },
    ]),
  );
}

async function watchRow(
  entry: { token: string; symbol: TResolvedSymbol | null; invalid: string | null },
  language: "zh" | "en",
): Promise<WatchRow> {
  const { symbol } = entry;
  const base: WatchRow = {
    token: entry.token,
    code: symbol?.displayCode ?? null,
    name: symbol ? ((language === "en" ? symbol.nameEn : undefined) ?? symbol.name ?? null) : null,
    market: symbol?.market ?? null,
    invalid: entry.invalid,
    price: null,
    changePct: null,
    priceDate: null,
    priceTime: null,
    priceStale: false,
    delayed: false,
    closes: [],
    source: null,
    dataError: null,
    latest: null,
  };
  if (!symbol) return base;
  const key = sourcesKey(dedupKey(symbol));
  const read = getPriceSeries(symbol, SPARK_CLOSES).then((series): PriceFields => {
    const fields: PriceFields = {
      name: base.name ?? series.quote?.name ?? null,
      price: series.current?.price ?? null,
      changePct: series.current?.change_pct ?? null,
      priceDate: series.current?.date ?? null,
      priceTime: series.current?.time ?? null,
      priceStale: series.current ? series.current.date < lastClosedTradingDay(symbol.market, now()) : false,
      closes: series.bars.slice(-SPARK_CLOSES).map((b) => b.close),
      source: series.current?.source ?? null,
    };
    if (fields.price !== null) remember(lastRows, key, fields);
    return fields;
  });
  try {
    return { ...base, ...(await withBudget(read)) };
  } catch (error) {
    const last = lastRows.get(key);
    return last ? { ...base, ...last, delayed: true, dataError: reason(error) } : { ...base, dataError: reason(error) };
  }
}

type Overview = Awaited<ReturnType<typeof marketOverview>> | { error: string };
const tileMemo = new Map<string, { at: number; value: Promise<Overview> }>();

/**
 * One market's overview within the budget. The read itself is remembered for TILES_TTL_MS (a failure too:
 * offline, the page stays fast), not the budget's verdict: a read that outlasts one render's budget still lands
 * in the memo, so the next render shows it instead of another TILES_TTL_MS without indices.
 */
function overviewOf(market: TMarket): Promise<Overview & { delayed?: boolean }> {
  // Keyed by the provider list too: a settings change is seen at once.
  const key = sourcesKey(market);
  let memo = tileMemo.get(key);
  const at = Date.now();
  if (!memo || at - memo.at >= TILES_TTL_MS) {
    const read = marketOverview(market);
    read.then((value) => remember(lastOverviews, key, value)).catch(() => undefined);
    memo = { at, value: read.catch((error: unknown): Overview => ({ error: reason(error) })) };
    tileMemo.set(key, memo);
  }
  // No answer in time, or a failure: the last tiles read, marked delayed, when there are any.
  const settle = (value: Overview): Overview & { delayed?: boolean } => {
    const last = "error" in value ? lastOverviews.get(key) : undefined;
    return last ? { ...last, delayed: true } : value;
  };
  return withBudget(memo.value).then(settle, (error: unknown) => settle({ error: reason(error) }));
}

async function marketTiles(markets: readonly TMarket[]): Promise<{ indices: IndexTile[]; breadth: BreadthLine[] }> {
  const overviews = await Promise.all(markets.map(overviewOf));
  const indices: IndexTile[] = [];
  const breadth: BreadthLine[] = [];
  overviews.forEach((overview, i) => {
    const market = markets[i]!;
    if ("error" in overview) return;
    for (const index of overview.indices) {
      indices.push({
        market,
        code: index.display_code,
        name: index.name,
        nameEn: index.name_en,
        price: index.quote?.price ?? null,
        changePct: index.quote?.change_pct ?? null,
        time: index.quote?.time ?? null,
        source: index.quote?.source ?? null,
        error: index.error,
        delayed: "delayed" in overview && overview.delayed === true,
      });
    }
    if (overview.breadth) {
      const b = overview.breadth;
      breadth.push({
        market,
        advancers: b.advancers,
        decliners: b.decliners,
        flat: b.flat,
        limitUp: b.limit_up,
        limitDown: b.limit_down,
      });
    }
  });
  return { indices, breadth };
}

/** Open (active) decision signals, the latest one per stock. */
async function openSignals(language: "zh" | "en"): Promise<CockpitSignal[]> {
  const list = await listSignals(ZDecisionSignalListQuery.parse({ status: "active", page_size: 50 }));
  const seen = new Set<string>();
  const out: CockpitSignal[] = [];
  for (const s of list.items) {
    const key = `${s.market}:${s.stock_code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      id: s.id,
      code: s.stock_code,
      name: displayName({ market: s.market, code: s.stock_code }, language, s.stock_name),
      action: s.action,
      score: s.score,
      entryLow: s.entry_low,
      entryHigh: s.entry_high,
      stopLoss: s.stop_loss,
      targetPrice: s.target_price,
      createdAt: s.created_at,
      expiresAt: s.expires_at,
    });
  }
  return out.slice(0, 12);
}

/** Alert triggers that fired today (service time zone). */
async function todaysTriggers(timeZone: string): Promise<CockpitTrigger[]> {
  const since = startOfLocalDay(localDay(now(), timeZone), timeZone).toISOString();
  const list = await listAlertTriggers({ status: "triggered", page: 1, page_size: 20 });
  return list.items
    .filter((t) => t.triggered_at >= since)
    .map((t) => ({
      id: t.id,
      target: t.target,
      alertType: t.alert_type,
      message: t.message,
      observedValue: t.observed_value,
      threshold: t.threshold,
      triggeredAt: t.triggered_at,
    }));
}

export async function loadCockpit(language: "zh" | "en"): Promise<Cockpit> {
  const settings = getSettings();
  const timeZone = serviceTimeZone();
  const entries = resolveWatchlist(settings.STOCK_LIST);
  const symbols = entries.flatMap((e) => (e.symbol ? [e.symbol] : []));
  const markets = [...new Set(symbols.map((s) => s.market))];
  if (markets.length === 0) markets.push("cn");
  const [rows, latest, tiles, signals, triggers] = await Promise.all([
    Promise.all(entries.map((e) => watchRow(e, language))),
    latestReports(symbols.map(dedupKey)),
    marketTiles(markets),
    openSignals(language),
    todaysTriggers(timeZone),
  ]);
  const watchlist = rows.map((row, i) => {
    const symbol = entries[i]!.symbol;
    return symbol ? { ...row, latest: latest.get(dedupKey(symbol)) ?? null } : row;
  });
  const firstIsSample = settings.MARKET_DATA_SOURCES[0] === "sample";
  const shownSample = watchlist.some((r) => r.source === "sample") || tiles.indices.some((i) => i.source === "sample");
  return {
    watchlist,
    markets,
    indices: tiles.indices,
    breadth: tiles.breadth,
    signals,
    triggers,
    sampleData: firstIsSample || shownSample,
    sampleMixed: !firstIsSample && shownSample,
    timeZone,
  };
}
