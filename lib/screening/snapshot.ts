import { db } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import type { TMarket } from "@/lib/market/symbols";
import { getSettings } from "@/lib/settings/settings";
import { now } from "@/lib/clock";
import { fetchEastmoneyList, PAGE_SIZE, ZSnapshotRow, type TSnapshotRow } from "./snapshot-eastmoney";
import type { TSourceError } from "./schemas";

// A market's list from a provider for a screening run: read now and kept as the last good list, or, when the read
// fails, the last good list with its age (the run then says it fell back). Only Eastmoney serves such a list here.

/** Stocks a run reads bars for from a provider's list: the most traded of the market (the "few hundred"). */
export const LISTED_STOCKS = 300;
const SOURCE = "eastmoney";

export interface MarketList {
  source: string;
  /** Stocks the whole list has (the market's size as the provider counts it). */
  total: number;
  rows: TSnapshotRow[];
  fetchedAt: Date;
  fallback: boolean;
  /** Hours since the list was read, for a fallback; null when it was read now. */
  ageHours: number | null;
}

async function stored(market: TMarket): Promise<MarketList | null> {
  const row = await db().screeningSnapshot.findUnique({ where: { market_source: { market, source: SOURCE } } });
  if (!row) return null;
  const rows = ZSnapshotRow.array().safeParse(JSON.parse(row.rows));
  if (!rows.success) return null;
  const ageHours = Math.round(((now().getTime() - row.fetchedAt.getTime()) / 3_600_000) * 10) / 10;
  return { source: SOURCE, total: row.total, rows: rows.data, fetchedAt: row.fetchedAt, fallback: true, ageHours };
}

/** The list, or null (with the error) when the provider failed and no good list is kept. */
export async function providerMarketList(
  market: TMarket,
): Promise<{ list: MarketList | null; error: TSourceError | null }> {
  const pages = Math.ceil(LISTED_STOCKS / PAGE_SIZE);
  try {
    const signal = AbortSignal.timeout(getSettings().MARKET_DATA_TIMEOUT_MS * pages);
    const page = await fetchEastmoneyList(market, LISTED_STOCKS, signal);
    if (page.rows.length === 0) throw new Error("the list came back empty");
    const fetchedAt = now();
    const data = {
      total: page.total,
      rowCount: page.rows.length,
      rows: JSON.stringify(page.rows),
      fetchedAt,
    };
    await db().screeningSnapshot.upsert({
      where: { market_source: { market, source: SOURCE } },
      create: { market, source: SOURCE, ...data },
      update: data,
    });
    return {
      list: { source: SOURCE, total: page.total, rows: page.rows, fetchedAt, fallback: false, ageHours: null },
      error: null,
    };
  } catch (failure) {
    const message = `${market} list: ${failure instanceof Error ? failure.message : String(failure)}`.slice(0, 300);
    logger.warn({ market, err: failure }, "screening market list failed");
    return { list: await stored(market), error: { source: SOURCE, code: "market_list_unavailable", message } };
  }
}
