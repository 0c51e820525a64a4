import { DOWN_TEXT, UP_TEXT } from "@/components/analysis/tone";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

// Number formats of the Portfolio page. Grouped with en-US separators in both languages (zh-CN writes numbers
// the same way), so what the page shows can be compared with the API's numbers.

export type PortfolioTexts = Dictionary["portfolioUi"];

const MONEY = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const QUANTITY = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });

export function money(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : MONEY.format(value);
}

export function signedMoney(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return `${value > 0 ? "+" : ""}${MONEY.format(value)}`;
}

export function quantity(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : QUANTITY.format(value);
}

/** Prices and costs per share: up to 4 decimals, at least 2. */
export function price(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 4, useGrouping: false });
}

export function pct(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : `${value.toFixed(digits)}%`;
}

export function signedPct(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}%`;
}

/** Gains in the "up" colour, losses in the "down" colour of the user's convention (components/analysis/tone.ts). */
export function pnlTone(value: number | null | undefined): string {
  if (value === null || value === undefined || value === 0) return "";
  return value > 0 ? UP_TEXT : DOWN_TEXT;
}

export function marketLabel(t: PortfolioTexts, market: string): string {
  return Object.hasOwn(t.markets, market) ? t.markets[market as keyof PortfolioTexts["markets"]] : market;
}
