// Which prices may be compared with which. The exchange feeds (eastmoney, tencent, yahoo) quote the same exchange
// prices, so one stands in for another; a user's CSV file and the sample series are each a source of their own: a
// report made from one is never compared with, or graded on, the other's prices.

export type SourceFamily = "exchange" | "csv" | "sample";

export function sourceFamily(source: string | null | undefined): SourceFamily | null {
  if (!source) return null;
  return source === "csv" || source === "sample" ? source : "exchange";
}
