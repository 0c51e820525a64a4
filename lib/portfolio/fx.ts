import { getSettings } from "@/lib/config/settings";

// Currency conversion of the portfolio through CNY: one unit of each currency in CNY. The rates come from
// PORTFOLIO_FX_RATES ("USD=7.1,HKD=0.91"). A conversion that needs a currency without a rate uses 1 and marks the
// result fx_stale, so a report never silently mixes currencies.

export interface FxRate {
  /** One unit in CNY. */
  rate: number;
  /** The day the rate is of; null for the settings' rates (no date). */
  date: string | null;
  source: string;
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
  private readonly missing = new Set<string>();

  constructor(readonly rates: ReadonlyMap<string, FxRate>) {}

  private rateOf(currency: string): number {
    if (currency === "CNY") return 1;
    const found = this.rates.get(currency);
    if (found) return found.rate;
    this.missing.add(currency);
    return 1;
  }

  convert(amount: number, from: string, to: string): number {
    if (from === to) return amount;
    return (amount * this.rateOf(from)) / this.rateOf(to);
  }

  /** Converting between the two needs a rate that is missing. */
  isStale(from: string, to: string): boolean {
    if (from === to) return false;
    return [from, to].some((c) => c !== "CNY" && !this.rates.has(c));
  }

  /** A conversion so far needed a currency without a usable rate. */
  get stale(): boolean {
    return this.missing.size > 0;
  }

  ratesToCny(): Record<string, number> {
    return { CNY: 1, ...Object.fromEntries([...this.rates].map(([code, r]) => [code, r.rate])) };
  }
}

/** The rates a valuation uses. */
export function loadFx(): FxTable {
  const rates = new Map<string, FxRate>();
  for (const [code, rate] of Object.entries(settingsRates())) rates.set(code, { rate, date: null, source: "settings" });
  return new FxTable(rates);
}
