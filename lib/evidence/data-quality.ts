import { dailyLimitPct, REGIME_SLOPE_BARS, type TReportLanguage } from "@/lib/analysis/engine";
import type { TDailyBar } from "@/lib/market";
import { nextTradingDay } from "@/lib/market/calendar";
import { lastClosedTradingDay } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import type { TDataQuality, TDataQualityReason } from "./schemas";

// How far the data behind a call can carry it (docs/api.md §13 `details.data_quality`). At `insufficient` the
// report's action is watch: the engine's structure, levels or freshness cannot be trusted on these bars.

/** MA60 and its slope over REGIME_SLOPE_BARS: without them the engine reads no trend structure at all. */
export const STRUCTURE_MIN_BARS = 60 + REGIME_SLOPE_BARS;
/** A call more than a trading week behind the market speaks about the past, not about the next session. */
export const STALE_SESSIONS_INSUFFICIENT = 5;
/** Volume missing on every one of the latest bars this many: the volume factor and its checks are left out. */
const VOLUME_LOOKBACK = 20;
/** Outside A-shares a close-to-close move beyond this is a split or a broken series, not a market move. */
const GAP_PCT_ELSEWHERE = 40;
/** A-share moves a little beyond the board's limit are ex-dividend days of an unadjusted feed; beyond this, a gap. */
const LIMIT_TOLERANCE_PCT = 5;
/** Counting stops here (about 80 years of sessions): a loop bound, never reached by a real series. */
const STALE_COUNT_CAP = 20_000;

export interface DataQualityInput {
  bars: readonly TDailyBar[];
  /** Provider that served the bars. */
  source: string;
  /** Provider of the quote joined to the bars, if any. */
  quoteSource?: string | null;
  /** Providers tried for the bars, in order: one that failed before the answering one is a fallback. */
  attempts?: readonly { provider: string; ok: boolean }[];
  market: TMarket;
  code?: string | null;
  kind?: "stock" | "index";
  at: Date;
  language: TReportLanguage;
}

type Reason = { code: TDataQualityReason; message: string; blocks: boolean };

function sessionsBehind(market: TMarket, lastBar: string, through: string): number {
  let n = 0;
  for (let day = lastBar; day < through && n < STALE_COUNT_CAP; n += 1) day = nextTradingDay(market, day);
  return n;
}

function gapLimitPct(input: DataQualityInput): number {
  const limit = dailyLimitPct(input.market, input.code, input.kind);
  return limit === null ? GAP_PCT_ELSEWHERE : limit + LIMIT_TOLERANCE_PCT;
}

function reasonsOf(input: DataQualityInput): Reason[] {
  const { bars, language: l } = input;
  const zh = l === "zh";
  const out: Reason[] = [];
  if (bars.length < STRUCTURE_MIN_BARS) {
    out.push({
      code: "too_few_bars",
      blocks: true,
      message: zh
        ? `仅有 ${bars.length} 根日K线，判断趋势结构至少需要 ${STRUCTURE_MIN_BARS} 根`
        : `Only ${bars.length} daily bars: the trend structure needs at least ${STRUCTURE_MIN_BARS}`,
    });
  }
  const last = bars.at(-1)?.date ?? null;
  const through = lastClosedTradingDay(input.market, input.at);
  if (last !== null && last < through) {
    const behind = sessionsBehind(input.market, last, through);
    out.push({
      code: "stale_bars",
      blocks: behind > STALE_SESSIONS_INSUFFICIENT,
      message: zh
        ? `最新日K线为 ${last}，落后最近收盘交易日 ${through} 共 ${behind} 个交易日`
        : `The last bar is ${last}, ${behind} session${behind === 1 ? "" : "s"} before the last closed session ${through}`,
    });
  }
  const recent = bars.slice(-VOLUME_LOOKBACK);
  if (recent.length > 0 && recent.every((b) => !(b.volume > 0))) {
    out.push({
      code: "missing_volume",
      blocks: false,
      message: zh
        ? `最近 ${recent.length} 根K线没有成交量：量能指标未参与判断`
        : `No volume on the last ${recent.length} bars: the volume checks are left out`,
    });
  }
  const sample = input.source === "sample" || input.quoteSource === "sample" || bars.some((b) => b.source === "sample");
  if (sample) {
    out.push({
      code: "sample_data",
      blocks: false,
      message: zh ? "示例数据：不是真实行情" : "Sample data: not real market prices",
    });
  }
  const attempts = input.attempts ?? [];
  const failed = attempts.filter((a) => !a.ok).map((a) => a.provider);
  if (failed.length > 0 && attempts.some((a) => a.ok)) {
    out.push({
      code: "provider_fallback",
      blocks: false,
      message: zh
        ? `${failed.join("、")} 未能提供数据，由 ${input.source} 提供`
        : `${failed.join(", ")} failed; ${input.source} served the bars`,
    });
  }
  const limit = gapLimitPct(input);
  for (let i = bars.length - 1; i >= 1; i -= 1) {
    const move = (bars[i]!.close / bars[i - 1]!.close - 1) * 100;
    if (Math.abs(move) <= limit) continue;
    const recentGap = bars.length - i <= STRUCTURE_MIN_BARS;
    const pct = `${move > 0 ? "+" : ""}${move.toFixed(1)}%`;
    out.push({
      code: "price_gap",
      blocks: recentGap,
      message: zh
        ? `${bars[i]!.date} 收盘较前一日变动 ${pct}，超出正常涨跌幅且数据中没有除权记录${recentGap ? "：均线与关键价位跨越该缺口" : ""}`
        : `The close of ${bars[i]!.date} moved ${pct} from the day before, beyond a normal move, with no split in the data${recentGap ? ": the averages and levels span the gap" : ""}`,
    });
    break; // the newest gap is the one that matters; one is enough to say the series is not continuous
  }
  return out;
}

export function assessDataQuality(input: DataQualityInput): TDataQuality {
  const reasons = reasonsOf(input);
  const level = reasons.some((r) => r.blocks) ? "insufficient" : reasons.length > 0 ? "degraded" : "good";
  return {
    level,
    reasons: reasons.map(({ code, message }) => ({ code, message })),
    bars: input.bars.length,
    last_bar_date: input.bars.at(-1)?.date ?? null,
    source: input.source,
  };
}
