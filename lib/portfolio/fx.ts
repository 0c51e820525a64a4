import { getSettings } from "@/lib/config/settings";

// Conversion to the report's base currency through CNY, with the rates of PORTFOLIO_FX_RATES ("USD=7.1,HKD=0.91":
// one unit in CNY). No FX feed is wired: the report names the settings as its source.
export function fxRates(): Record<string, number> {
  const rates: Record<string, number> = { CNY: 1 };
  for (const part of getSettings().PORTFOLIO_FX_RATES.split(",")) {
    const [code, value] = part.split("=").map((s) => s.trim());
    const rate = Number(value);
    if (code && /^[A-Z]{3}$/.test(code.toUpperCase()) && Number.isFinite(rate) && rate > 0) rates[code.toUpperCase()] = rate;
  }
  return rates;
}

export function toBase(amount: number, currency: string, base: string, rates: Record<string, number>): number {
  if (currency === base) return amount;
  const inCny = amount * (rates[currency] ?? 1);
  return inCny / (rates[base] ?? 1);
}
