import type { TDailyBar } from "@/lib/market";
import { nextWeekday } from "@/lib/market/market-time";

// Hand-made bars for the engine's tests: one close per weekday from `start`, high/low 1 % around the close.
export function barsFromCloses(
  closes: readonly number[],
  options: { start?: string; volumes?: readonly number[] } = {},
): TDailyBar[] {
  let date = options.start ?? "2026-01-05";
  return closes.map((close, i) => {
    const bar: TDailyBar = {
      date,
      open: close,
      high: close * 1.01,
      low: close * 0.99,
      close,
      volume: options.volumes?.[i] ?? 1_000_000,
      amount: null,
      turnover_rate: 1.5,
      source: "eastmoney",
    };
    date = nextWeekday(date);
    return bar;
  });
}
