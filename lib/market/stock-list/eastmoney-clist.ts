import { z } from "zod";
import { httpGetText, parseJson, unwrapJsonp } from "@/lib/market/providers/http";
import { ProviderResponseError, TransientProviderError } from "@/lib/market/providers/types";
import { classifyAShareCode, type TMarket } from "@/lib/market/symbols";

// The full stock lists from Eastmoney's quote-centre list endpoint `clist/get`, paged.
// Field names come from the recorded bodies in tests/fixtures/market-data/eastmoney (clist-*.json/.txt):
// f12 code (string), f13 market id (1 SH, 0 SZ/BJ, 116/128 HK, 105 NASDAQ, 106 NYSE, 107 NYSE American),
// f14 name. Only those three are requested.

export const CLIST_URL = "https://push2.eastmoney.com/api/qt/clist/get";
const HEADERS = { Referer: "https://quote.eastmoney.com/" };

/**
 * `fs` filters per market (README of the fixtures): A-shares = SH main board + STAR + SZ main board + ChiNext
 * + Beijing (no B shares); HK = the quote centre's HK list; US = NASDAQ, NYSE, NYSE American.
 */
export const LIST_FILTERS: Record<TMarket, string> = {
  cn: "m:1 t:2,m:1 t:23,m:0 t:6,m:0 t:80,m:0 t:81 s:2048",
  hk: "m:128 t:3,m:128 t:4,m:128 t:1,m:128 t:2",
  us: "m:105,m:106,m:107",
};

/** 100 rows per page: larger `pz` values are reported to be capped by the server. */
export const DEFAULT_PAGE_SIZE = 100;
/** Upper bound on pages per market (US is ~12 000 rows = 120 pages), so a server that never ends cannot loop. */
const MAX_PAGES = 400;

// "-" is Eastmoney's missing value; codes may arrive as numbers from some mirrors.
const ZCode = z.union([z.string(), z.number()]).transform((v) => String(v).trim());
const ZClistRow = z.looseObject({
  f12: ZCode,
  f13: z.number().int().optional(),
  f14: z.string().optional(),
});
const ZClistEnvelope = z.looseObject({
  rc: z.number(),
  data: z
    .looseObject({
      total: z.number().int().nonnegative(),
      // np=1 returns an array; without it the server sends an object keyed "0", "1", ...
      diff: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown()).transform((o) => Object.values(o))]),
    })
    .nullable()
    .optional(),
});

export interface StockListRow {
  market: TMarket;
  code: string;
  nameZh: string;
  nameEn: string | null;
  exchange: string | null;
  kind: "stock";
}

export interface ClistPage {
  /** Rows matching the filter in total (all pages), as the server reports it; 0 for "no data". */
  total: number;
  /** Rows of this page as the server sent them (before filtering), to tell an empty page from a filtered one. */
  received: number;
  rows: StockListRow[];
  /** Rows dropped, with why: code not of the market's shape, no name. */
  skipped: { code: string; reason: string }[];
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

const US_EXCHANGES: Record<number, string> = { 105: "NASDAQ", 106: "NYSE", 107: "AMEX" };

/** Eastmoney code → our normalised code for the market, or a reason it is not a listed stock we keep. */
export function normaliseListCode(
  market: TMarket,
  raw: string,
): { code: string; exchange: string | null } | { reason: string } {
  if (market === "cn") {
    if (!/^\d{6}$/.test(raw)) return { reason: "not a 6-digit A-share code" };
    const cls = classifyAShareCode(raw);
    return cls.type === "stock" ? { code: raw, exchange: cls.exchange } : { reason: "not an A-share stock code" };
  }
  if (market === "hk") {
    if (!/^\d{1,5}$/.test(raw)) return { reason: "not a numeric HK code" };
    return { code: raw.padStart(5, "0"), exchange: "HK" };
  }
  // US: Eastmoney writes the share-class separator as "_" (BRK_B); we use "." (BRK.B).
  const code = raw.toUpperCase().replace(/_/g, ".");
  if (!/^[A-Z][A-Z0-9]*(\.[A-Z0-9]+)?$/.test(code)) return { reason: "not a US ticker" };
  return { code, exchange: null };
}

/** One clist reply (JSON or JSONP) → normalised listing rows. Throws ProviderResponseError on garbage. */
export function parseClistPage(text: string, market: TMarket): ClistPage {
  const body = parseJson(unwrapJsonp(text), "eastmoney clist");
  const parsed = ZClistEnvelope.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderResponseError(
      `eastmoney clist: ${issue ? `${issue.path.join(".") || "(root)"} ${issue.message}` : "invalid body"}`,
    );
  }
  const env = parsed.data;
  if (env.rc !== 0 && env.rc !== 100) throw new ProviderResponseError(`eastmoney clist: rc ${env.rc}`);
  if (!env.data) return { total: 0, received: 0, rows: [], skipped: [] };
  const rows: StockListRow[] = [];
  const skipped: ClistPage["skipped"] = [];
  for (const item of env.data.diff) {
    const row = ZClistRow.safeParse(item);
    if (!row.success) {
      skipped.push({ code: "?", reason: "row without f12 code" });
      continue;
    }
    const { f12, f13, f14 } = row.data;
    const name = f14?.trim() ?? "";
    if (name === "" || name === "-") {
      skipped.push({ code: f12, reason: "no name" });
      continue;
    }
    const normal = normaliseListCode(market, f12);
    if ("reason" in normal) {
      skipped.push({ code: f12, reason: normal.reason });
      continue;
    }
    const exchange = market === "us" ? (f13 !== undefined ? (US_EXCHANGES[f13] ?? null) : null) : normal.exchange;
    rows.push({
      market,
      code: normal.code,
      nameZh: name,
      // Chinese-less names (many US listings) are English names too, so English lookup finds them.
      nameEn: CJK.test(name) ? null : name,
      exchange,
      kind: "stock",
    });
  }
  return { total: env.data.total, received: env.data.diff.length, rows, skipped };
}

export function clistUrl(market: TMarket, page: number, pageSize: number): string {
  const params = new URLSearchParams({
    pn: String(page),
    pz: String(pageSize),
    // Sorted by code ascending: a stable order while paging (sorting by change % reshuffles pages intraday).
    po: "0",
    np: "1",
    fltt: "2",
    invt: "2",
    fid: "f12",
    fs: LIST_FILTERS[market],
    fields: "f12,f13,f14",
  });
  return `${CLIST_URL}?${params}`;
}

export interface FetchListOptions {
  pageSize?: number;
  /** Per-request budget (default 8000 ms, MARKET_DATA_TIMEOUT_MS in the script). */
  timeoutMs?: number;
  /** Retries of one page after a network error or 5xx, with exponential backoff. */
  retries?: number;
  backoffMs?: number;
  /** Pause between pages: Eastmoney drops clients that burst. */
  pauseMs?: number;
  onPage?: (info: { market: TMarket; page: number; rows: number; total: number }) => void;
}

export interface FetchListResult {
  market: TMarket;
  rows: StockListRow[];
  /** What the server said the filter matches. */
  total: number;
  pages: number;
  skipped: number;
  /** True when every page up to `total` was read. */
  complete: boolean;
  /** Why the list is incomplete (the page that failed and the error), else null. */
  error: string | null;
  /** The failure was the network (connection refused, DNS, timeout), not a bad answer. */
  offline: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function getWithRetries(
  url: string,
  options: Required<Pick<FetchListOptions, "timeoutMs" | "retries" | "backoffMs">>,
): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await httpGetText(url, { signal: AbortSignal.timeout(options.timeoutMs), headers: HEADERS });
    } catch (error) {
      const transient =
        error instanceof TransientProviderError || (error instanceof DOMException && error.name === "TimeoutError");
      if (!transient || attempt >= options.retries) throw error;
      await sleep(options.backoffMs * 2 ** attempt);
    }
  }
}

function isNetworkError(error: unknown): boolean {
  return error instanceof TransientProviderError || (error instanceof DOMException && error.name === "TimeoutError");
}

/**
 * Every page of one market's list. Never throws for a failed page: the rows read so far are returned with
 * complete=false and the error, so the caller can still store them (listings are only ever added/updated).
 * Duplicates across pages (the list moving while it is read) keep the last spelling.
 */
export async function fetchMarketList(market: TMarket, options: FetchListOptions = {}): Promise<FetchListResult> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const http = {
    timeoutMs: options.timeoutMs ?? 8000,
    retries: options.retries ?? 2,
    backoffMs: options.backoffMs ?? 400,
  };
  const byCode = new Map<string, StockListRow>();
  let total = 0;
  let skipped = 0;
  let pages = 0;
  let seen = 0;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    let parsed: ClistPage;
    try {
      if (page > 1 && options.pauseMs) await sleep(options.pauseMs);
      parsed = parseClistPage(await getWithRetries(clistUrl(market, page, pageSize), http), market);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        market,
        rows: [...byCode.values()],
        total,
        pages,
        skipped,
        complete: false,
        error: `page ${page}: ${message}`,
        offline: isNetworkError(error),
      };
    }
    pages += 1;
    if (page === 1) total = parsed.total;
    for (const row of parsed.rows) byCode.set(row.code, row);
    skipped += parsed.skipped.length;
    seen += parsed.received;
    options.onPage?.({ market, page, rows: parsed.rows.length, total });
    if (seen >= total)
      return { market, rows: [...byCode.values()], total, pages, skipped, complete: true, error: null, offline: false };
    if (parsed.received === 0) {
      return {
        market,
        rows: [...byCode.values()],
        total,
        pages,
        skipped,
        complete: false,
        error: `page ${page} was empty after ${seen} of ${total} rows`,
        offline: false,
      };
    }
  }
  return {
    market,
    rows: [...byCode.values()],
    total,
    pages,
    skipped,
    complete: false,
    error: `stopped after ${MAX_PAGES} pages (${seen} of ${total} rows)`,
    offline: false,
  };
}
