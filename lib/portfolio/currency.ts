import type { TPortfolioMarket } from "./schemas";

// The listing currency of each market, and the market an account of a currency belongs to (docs/api.md §12.1.1).
const CURRENCY_OF_MARKET: Record<TPortfolioMarket, string> = { cn: "CNY", hk: "HKD", us: "USD" };

export function currencyOfMarket(market: string): string {
  return CURRENCY_OF_MARKET[market as TPortfolioMarket] ?? "CNY";
}

export function marketOfCurrency(currency: string): TPortfolioMarket {
  if (currency === "HKD") return "hk";
  if (currency === "USD") return "us";
  return "cn";
}
