import type { TDailyBar, TMarketSymbol, TQuote } from "@/lib/market";
import { createSampleProvider } from "@/lib/market/providers/sample";

const BARS = 250;

/** Sample bars and quote straight from the provider (no database), for in-process benchmarks. */
export function getProvider() {
  const provider = createSampleProvider({ latencyMs: () => 0 });
  const signal = new AbortController().signal;
  return {
    async load(target: TMarketSymbol): Promise<{ bars: TDailyBar[]; quote: TQuote | null }> {
      const [bars, quote] = await Promise.all([
        provider.dailyBars(target, BARS, { signal }),
        provider.quote(target, { signal }),
      ]);
      return { bars, quote };
    },
  };
}
