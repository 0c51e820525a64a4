import { MIN_INDEPENDENT_CALLS, type TEvidenceVerdict } from "@/lib/evidence/schemas";
import { neweyWestLags, neweyWestMean } from "@/lib/evidence/robust-stats";

// A paper account's record in figures: its return against the market's index over the same sessions, drawdown,
// exposure, turnover, each closed trade, and whether the daily excess over the index shows a measurable edge. Daily
// returns of a book that holds positions for weeks are correlated, so the mean excess carries a Newey-West interval;
// fewer than MIN_INDEPENDENT_CALLS sessions (or no benchmark) is "insufficient", never an edge.

export interface DayRow {
  session: string;
  equity: number;
  marketValue: number;
}

export interface FillRow {
  session: string;
  code: string;
  side: string;
  quantity: number;
  price: number;
  fees: number;
  reason: string;
  signalId: number;
  reportId: number | null;
}

export interface PaperTrade {
  code: string;
  entry_session: string;
  /** Per share, the buy's fees included. */
  entry_cost: number;
  exit_session: string;
  exit_price: number;
  quantity: number;
  exit_reason: string;
  /** After every fee and tax of both sides, %. */
  return_pct: number;
  signal_id: number;
  report_id: number | null;
}

export interface PaperStats {
  sessions: number;
  return_pct: number;
  benchmark_return_pct: number | null;
  max_drawdown_pct: number;
  exposure_pct: number;
  turnover: number;
  trades: number;
  wins: number;
  win_rate_pct: number | null;
  daily_excess: {
    n: number;
    mean_pct: number;
    ci95_low_pct: number;
    ci95_high_pct: number;
    lags: number;
  } | null;
  verdict: TEvidenceVerdict;
}

const pct = (v: number) => Math.round(v * 10_000) / 100;
const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

/** Each sell fill closes shares bought by the latest buy of its stock before it (a position is opened by one buy). */
export function closedTrades(fills: readonly FillRow[]): PaperTrade[] {
  const open = new Map<string, FillRow>();
  const trades: PaperTrade[] = [];
  for (const fill of fills) {
    if (fill.side === "buy") {
      open.set(fill.code, fill);
      continue;
    }
    const buy = open.get(fill.code);
    if (!buy) continue;
    const cost = (buy.quantity * buy.price + buy.fees) / buy.quantity;
    const proceeds = fill.quantity * fill.price - fill.fees;
    trades.push({
      code: fill.code,
      entry_session: buy.session,
      entry_cost: round4(cost),
      exit_session: fill.session,
      exit_price: fill.price,
      quantity: fill.quantity,
      exit_reason: fill.reason,
      return_pct: pct(proceeds / (fill.quantity * cost) - 1),
      signal_id: buy.signalId,
      report_id: buy.reportId,
    });
  }
  return trades;
}

export function paperStats(
  startingCash: number,
  days: readonly DayRow[],
  fills: readonly FillRow[],
  benchmarkCloses: ReadonlyMap<string, number> | null,
): PaperStats {
  const equities = days.map((d) => d.equity);
  let peak = startingCash;
  let drawdown = 0;
  for (const e of equities) {
    peak = Math.max(peak, e);
    drawdown = Math.min(drawdown, e / peak - 1);
  }
  const meanEquity = equities.length > 0 ? equities.reduce((s, e) => s + e, 0) / equities.length : startingCash;
  const traded = fills.reduce((s, f) => s + f.quantity * f.price, 0);
  const exposure =
    days.length > 0 ? days.reduce((s, d) => s + (d.equity > 0 ? d.marketValue / d.equity : 0), 0) / days.length : 0;
  const trades = closedTrades(fills);
  const wins = trades.filter((t) => t.return_pct > 0).length;

  // Daily excess over the index: both from one session's close to the next.
  let benchmarkReturn: number | null = null;
  let excess: PaperStats["daily_excess"] = null;
  const first = days[0];
  if (benchmarkCloses && first && days.every((d) => benchmarkCloses.has(d.session))) {
    const closes = days.map((d) => benchmarkCloses.get(d.session)!);
    benchmarkReturn = pct(closes.at(-1)! / closes[0]! - 1);
    const diffs: number[] = [];
    for (let i = 1; i < days.length; i += 1)
      diffs.push(equities[i]! / equities[i - 1]! - 1 - (closes[i]! / closes[i - 1]! - 1));
    const lags = neweyWestLags(1);
    const mean = neweyWestMean(diffs, lags);
    if (mean)
      excess = {
        n: diffs.length,
        mean_pct: round4(mean.estimate * 100),
        ci95_low_pct: round4(mean.low * 100),
        ci95_high_pct: round4(mean.high * 100),
        lags,
      };
  }
  const verdict: TEvidenceVerdict =
    !excess || excess.n < MIN_INDEPENDENT_CALLS
      ? "insufficient"
      : excess.ci95_low_pct > 0
        ? "edge"
        : excess.ci95_high_pct < 0
          ? "adverse"
          : "no_measurable_edge";
  return {
    sessions: days.length,
    return_pct: pct((equities.at(-1) ?? startingCash) / startingCash - 1),
    benchmark_return_pct: benchmarkReturn,
    max_drawdown_pct: pct(drawdown),
    exposure_pct: pct(exposure),
    turnover: Math.round((traded / meanEquity) * 100) / 100,
    trades: trades.length,
    wins,
    win_rate_pct: trades.length > 0 ? pct(wins / trades.length) : null,
    daily_excess: excess,
    verdict,
  };
}
