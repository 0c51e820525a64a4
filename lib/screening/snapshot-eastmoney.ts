import { z } from "zod";
import { httpGetText, num, parseJson, unwrapJsonp } from "@/lib/market/providers/http";
import { ProviderResponseError } from "@/lib/market/providers/types";
import type { TMarket } from "@/lib/market/symbols";

// A market's most-traded stocks from Eastmoney's list endpoint (clist/get; recorded replies in
// tests/fixtures/market-data/eastmoney, fields in the README there), sorted by turnover amount so that the first
// pages are the liquid part of the market a screen reads bars for.

const LIST_URL = "https://push2.eastmoney.com/api/qt/clist/get";
const HEADERS = { Referer: "https://quote.eastmoney.com/" };
/** Rows per page: larger pages are reported to be capped at 100. */
export const PAGE_SIZE = 100;
// f2 price, f3 change %, f6 amount, f8 turnover %, f10 volume ratio, f12 code, f13 market id, f14 name, f20 market cap.
const FIELDS = "f2,f3,f6,f8,f10,f12,f13,f14,f20";
/** The boards of each market: SH/SZ main, STAR, ChiNext, Beijing; HK main and GEM; NASDAQ, NYSE, NYSE American. */
const BOARDS: Record<TMarket, string> = {
  cn: "m:0 t:6,m:0 t:80,m:1 t:2,m:1 t:23,m:0 t:81 s:2048",
  hk: "m:128 t:3,m:128 t:4",
  us: "m:105,m:106,m:107",
};

export const ZSnapshotRow = z.object({
  code: z.string(),
  name: z.string().nullable(),
  price: z.number().nullable(),
  change_pct: z.number().nullable(),
  amount: z.number().nullable(),
  turnover_rate: z.number().nullable(),
  volume_ratio: z.number().nullable(),
  market_cap: z.number().nullable(),
});
export type TSnapshotRow = z.infer<typeof ZSnapshotRow>;

export interface ListPage {
  total: number;
  rows: TSnapshotRow[];
}

/** One clist reply (JSON or JSONP) → its rows; rc 100 (no data) is an empty page. */
export function parseEastmoneyList(text: string, market: TMarket): ListPage {
  const body = parseJson(unwrapJsonp(text), "eastmoney list") as { rc?: unknown; data?: unknown } | null;
  if (!body || typeof body !== "object" || !("rc" in body)) throw new ProviderResponseError("eastmoney list: no rc");
  if (body.rc === 100 || body.data === null) return { total: 0, rows: [] };
  if (body.rc !== 0) throw new ProviderResponseError(`eastmoney list: rc ${String(body.rc)}`);
  const data = body.data as { total?: unknown; diff?: unknown };
  if (!Array.isArray(data.diff)) throw new ProviderResponseError("eastmoney list: data.diff is not an array");
  const rows = data.diff.flatMap((raw): TSnapshotRow[] => {
    const row = raw as Record<string, unknown>;
    if (typeof row.f12 !== "string" || row.f12 === "") return [];
    // US codes spell a share class with "_" (BRK_B); the service's form is BRK.B.
    const code = market === "us" ? row.f12.replace("_", ".") : row.f12;
    return [
      {
        code,
        name: typeof row.f14 === "string" ? row.f14 : null,
        price: num(row.f2),
        change_pct: num(row.f3),
        amount: num(row.f6),
        turnover_rate: num(row.f8),
        volume_ratio: num(row.f10),
        market_cap: num(row.f20),
      },
    ];
  });
  return { total: typeof data.total === "number" ? data.total : rows.length, rows };
}

/** The first `want` rows of the market by turnover amount (fewer when the market has fewer), and its size. */
export async function fetchEastmoneyList(market: TMarket, want: number, signal: AbortSignal): Promise<ListPage> {
  const rows: TSnapshotRow[] = [];
  let total = 0;
  for (let page = 1; rows.length < want; page += 1) {
    const params = new URLSearchParams({
      pn: String(page),
      pz: String(PAGE_SIZE),
      po: "1",
      np: "1",
      fltt: "2",
      invt: "2",
      fid: "f6",
      fs: BOARDS[market],
      fields: FIELDS,
    });
    const answer = parseEastmoneyList(await httpGetText(`${LIST_URL}?${params}`, { signal, headers: HEADERS }), market);
    total = Math.max(total, answer.total);
    rows.push(...answer.rows);
    // A short page is the last one.
    if (answer.rows.length < PAGE_SIZE) break;
  }
  return { total, rows: rows.slice(0, want) };
}
