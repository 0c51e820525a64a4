// Which prices may be compared with which. The exchange feeds (eastmoney, tencent, yahoo) quote the same exchange
// prices, so one stands in for another; a user's CSV file and the sample series are each a source of their own: a
// report made from one is never compared with, or graded on, the other's prices.

export type SourceFamily = "exchange" | "csv" | "sample";

/** Sources that read local data (the sample series, the user's CSV folder): they never need the network. */
export function isLocalSource(source: string): source is "csv" | "sample" {
  return source === "csv" || source === "sample";
}

export function sourceFamily(source: string | null | undefined): SourceFamily | null {
  if (!source) return null;
  return isLocalSource(source) ? source : "exchange";
}
