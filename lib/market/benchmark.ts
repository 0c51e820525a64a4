import { getDailyBars, type TDailyBar } from "@/lib/market";
import { resolveToken, type TMarket } from "@/lib/market/symbols";

// Each market's benchmark index: what relative strength is measured against and what a paper account is compared to.
export const BENCHMARK_INDEX: Record<TMarket, string> = { cn: "000300.SH", hk: "HSI", us: "SPX" };

/** The benchmark's last `count` daily bars, or null when no source serves them now. */
export async function benchmarkBars(market: TMarket, count: number): Promise<TDailyBar[] | null> {
  const resolved = resolveToken(BENCHMARK_INDEX[market]);
  if (!("kind" in resolved)) return null;
  try {
    return (await getDailyBars(resolved, count)).bars;
  } catch {
    return null;
  }
}
