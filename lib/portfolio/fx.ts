import { getSettings } from "@/lib/settings/settings";
import { db } from "@/lib/db/client";
import { addDays } from "@/lib/time/zoned-time";

// Currency conversion of the portfolio through CNY: one unit of each currency in CNY (docs/api.md §12.1.13). Per currency,
// the first of: PORTFOLIO_FX_RATES (the manual override, never stale), the latest rate POST /portfolio/fx/refresh stored
// on or before as_of (stale when older than FX_STALE_DAYS), a built-in fallback (always stale). A conversion through a
// stale or missing rate marks the result fx_stale, so a report never silently mixes currencies.

/** A stored rate older than this many calendar days before as_of is stale. */
export const FX_STALE_DAYS = 3;
const FALLBACK_RATES: Record<string, number> = { USD: 7.1, HKD: 0.91 };

export interface FxRate {
  /** One unit in CNY. */
  rate: number;
  /** The day the rate is of; null for the manual and fallback rates. */
  date: string | null;
  source: string;
  stale: boolean;
}

export function settingsRates(): Record<string, number> {
  const rates: Record<string, number> = {};
  for (const part of getSettings().PORTFOLIO_FX_RATES.split(",")) {
    const [code, value] = part.split("=").map((s) => s.trim());
    const rate = Number(value);
    if (code && /^[A-Za-z]{3,8}$/.test(code) && Number.isFinite(rate) && rate > 0) rates[code.toUpperCase()] = rate;
  }
  return rates;
}

export class FxTable {
  constructor(readonly rates: ReadonlyMap<string, FxRate>) {}

  private rateOf(currency: string): number {
    if (currency === "CNY") return 1;
    return this.rates.get(currency)?.rate ?? 1;
  }

  convert(amount: number, from: string, to: string): number {
    if (from === to) return amount;
    return (amount * this.rateOf(from)) / this.rateOf(to);
  }

  /** Converting between the two needs a rate that is missing or stale. */
  isStale(from: string, to: string): boolean {
    if (from === to) return false;
    return [from, to].some((c) => c !== "CNY" && (this.rates.get(c)?.stale ?? true));
  }

  ratesToCny(): Record<string, number> {
    return { CNY: 1, ...Object.fromEntries([...this.rates].map(([code, r]) => [code, r.rate])) };
  }
}

/** The rates a valuation at as_of uses. */
export async function loadFx(asOf: string): Promise<FxTable> {
  const rates = new Map<string, FxRate>();
  for (const [code, rate] of Object.entries(FALLBACK_RATES))
    rates.set(code, { rate, date: null, source: "fallback", stale: true });
  const stored = await db().portfolioFxRate.findMany({
    where: { rateDate: { lte: asOf } },
    orderBy: [{ rateDate: "asc" }, { id: "asc" }],
  });
  for (const row of stored) {
    rates.set(row.currency, {
      rate: row.rate,
      date: row.rateDate,
      source: row.source,
      stale: addDays(row.rateDate, FX_STALE_DAYS) < asOf,
    });
  }
  for (const [code, rate] of Object.entries(settingsRates()))
    rates.set(code, { rate, date: null, source: "PORTFOLIO_FX_RATES", stale: false });
  return new FxTable(rates);
}
