import type { Dictionary } from "@/lib/i18n/dictionaries/types";

// Display helpers of the Paper page (no zod here: the schemas are imported as types only).

export type PaperTexts = Dictionary["paperUi"];

export function money(value: number): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function percent(value: number): string {
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}%`;
}

export function accountHref(id: number): string {
  return `/paper?account=${id}`;
}
