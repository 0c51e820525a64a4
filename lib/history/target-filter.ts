import type { Prisma } from "@/generated/prisma/client";
import { dedupKey, isRejection, resolveToken } from "@/lib/market/symbols";

/**
 * Spec 4.3 rules 1–2: a code in any variant form (600519, 600519.SH, sh600519; an index by any of its
 * spellings) selects every record of that one target. Resolution is the analyze request's own, so the
 * stored target_key (dedupKey) is matched exactly and the [targetKey, id] index serves the query. A code
 * that does not resolve (MARKET for market reviews, a delisted code) is matched as stored.
 * Returns null for a blank code.
 */
export function historyTargetFilter(rawCode: string | null | undefined): Prisma.AnalysisHistoryWhereInput | null {
  const code = (rawCode ?? "").trim();
  if (!code) return null;
  const resolved = resolveToken(code);
  if (!isRejection(resolved)) return { targetKey: dedupKey(resolved) };
  const spellings = [...new Set([code, code.toUpperCase()])];
  return { stockCode: { in: spellings } };
}
