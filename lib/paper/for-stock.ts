import { db } from "@/lib/db/client";
import { resolveToken } from "@/lib/market/symbols";
import { closedTrades } from "./record-stats";
import { stateOf } from "./store";

// A stock's forward record in the paper accounts that trade it: shown beside a report of the stock, so the engine's
// backtest evidence stands next to what following its calls has done since.

export interface PaperForStock {
  account_id: number;
  name: string;
  status: string;
  /** The open position in the stock, if any. */
  position: { quantity: number; avg_cost: number; last_close: number } | null;
  trades: number;
  wins: number;
  /** Mean return of the closed trades after fees, %; null without any. */
  mean_return_pct: number | null;
}

export async function paperForStock(token: string): Promise<PaperForStock[]> {
  const resolved = resolveToken(token);
  if (!("kind" in resolved) || resolved.kind !== "stock") return [];
  const { displayCode: code, market } = resolved;
  const [accounts, fills] = await Promise.all([
    db().paperAccount.findMany({ where: { market }, orderBy: { id: "asc" } }),
    db().paperFill.findMany({ where: { code }, orderBy: [{ session: "asc" }, { id: "asc" }] }),
  ]);
  const out: PaperForStock[] = [];
  for (const account of accounts) {
    const own = fills.filter((f) => f.accountId === account.id);
    const held = stateOf(account).positions.find((p) => p.code === code);
    if (own.length === 0 && !held) continue;
    const trades = closedTrades(own);
    out.push({
      account_id: account.id,
      name: account.name,
      status: account.status,
      position: held
        ? { quantity: held.quantity, avg_cost: Math.round(held.avgCost * 10_000) / 10_000, last_close: held.lastClose }
        : null,
      trades: trades.length,
      wins: trades.filter((t) => t.return_pct > 0).length,
      mean_return_pct:
        trades.length > 0
          ? Math.round((trades.reduce((s, t) => s + t.return_pct, 0) / trades.length) * 100) / 100
          : null,
    });
  }
  return out;
}
