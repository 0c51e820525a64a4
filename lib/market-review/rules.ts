import { formatPct, formatPrice, SAMPLE_DATA_NOTICE } from "@/lib/analysis/engine/language";
import { localParts, MARKET_TIME_ZONE } from "@/lib/market/market-time";
import type { TMarketOverview } from "@/lib/market/overview";
import type { TMarket } from "@/lib/market/symbols";
import type { TNewsItem } from "@/lib/news";
import type {
  TIndexStats,
  TMarketReviewPayload,
  TMarketReviewRegion,
  TReviewBreadth,
  TReviewIndex,
  TReviewMarket,
  TReviewNews,
  TReviewSection,
  TTemperature,
  TTemperatureComponent,
} from "./schemas";

// The rule-based market review: every number comes from marketOverview, every judgement
// from a rule written out in the text itself, so a reader can recompute the review from the data. Pure: the
// same overviews, news and time give the same payload and text.

export type ReviewLanguage = "zh" | "en";

/** docs/api.md §7: "both" is cn + us, as in the reference. */
export function regionsOf(region: TMarketReviewRegion): TMarket[] {
  return region === "both" ? ["cn", "us"] : [region];
}

const REGION_LABELS: Record<TMarket, Record<ReviewLanguage, string>> = {
  cn: { zh: "A股", en: "China A-shares" },
  hk: { zh: "港股", en: "Hong Kong" },
  us: { zh: "美股", en: "US" },
};

export function regionLabel(region: TMarketReviewRegion, language: ReviewLanguage): string {
  return regionsOf(region)
    .map((r) => REGION_LABELS[r][language])
    .join(" + ");
}

export const REVIEW_STOCK_NAME: Record<ReviewLanguage, string> = { zh: "大盘复盘", en: "Market review" };

export const REVIEW_DISCLAIMER: Record<ReviewLanguage, string> = {
  zh: "免责声明：本复盘由程序根据行情数据自动生成，仅供参考，不构成任何投资建议。股市有风险，投资需谨慎。",
  en: "Disclaimer: this review was generated automatically from market data for information only. It is not investment advice; markets carry risk.",
};

// ---- temperature ----------------------------------------------------------------------------------

/** Points of each component: the rule the text prints (TEMPERATURE_RULE) must say the same. */
export const TEMPERATURE_WEIGHTS = { index: 40, breadth: 40, limit: 20 } as const;

const TEMPERATURE_RULE: Record<ReviewLanguage, string> = {
  zh:
    "规则：指数分 = 20 + 10 × 指数平均涨跌幅（%），限定在 0–40；宽度分 = 40 × 上涨家数 ÷ 统计家数；" +
    "涨跌停分 = 20 × 涨停 ÷（涨停 + 跌停），两者均为 0 时取 10；取不到的项不计分，总分 = 得分合计 ÷ 可用满分 × 100（四舍五入）。" +
    "≥80 过热，≥60 偏暖，≥40 中性，≥20 偏冷，其余冰点。" +
    "一致性：各市场指数均值都下跌且下跌家数多于上涨家数时，温度最高 59（不读作乐观）；都上涨且上涨家数多于下跌家数时，最低 40（不读作悲观）。",
  en:
    "Rule: index points = 20 + 10 × the indices' average change (%), kept within 0–40; breadth points = 40 × advancers ÷ stocks counted; " +
    "limit points = 20 × limit-up ÷ (limit-up + limit-down), 10 when both are 0; a part without data is left out and the score is " +
    "points earned ÷ points available × 100 (rounded). ≥80 hot, ≥60 warm, ≥40 neutral, ≥20 cool, otherwise cold. " +
    "Consistency: when every market's index mean fell and decliners outnumber advancers, the score is at most 59 (never read as " +
    "positive); when every index mean rose and advancers outnumber decliners, at least 40 (never read as negative).",
};

const LEVELS: { min: number; level: NonNullable<TTemperature["level"]>; label: Record<ReviewLanguage, string> }[] = [
  { min: 80, level: "hot", label: { zh: "过热", en: "Hot" } },
  { min: 60, level: "warm", label: { zh: "偏暖", en: "Warm" } },
  { min: 40, level: "neutral", label: { zh: "中性", en: "Neutral" } },
  { min: 20, level: "cool", label: { zh: "偏冷", en: "Cool" } },
  { min: 0, level: "cold", label: { zh: "冰点", en: "Cold" } },
];

const COMPONENT_LABELS: Record<TTemperatureComponent["key"], Record<ReviewLanguage, string>> = {
  index: { zh: "指数平均涨跌幅", en: "Index average change" },
  breadth: { zh: "上涨家数占比", en: "Share of advancers" },
  limit: { zh: "涨停占涨跌停比", en: "Limit-up share of limit moves" },
};

const round = (value: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The highest score that does not read as positive, and the lowest that does not read as negative. */
const NOT_POSITIVE_MAX = 59;
const NOT_NEGATIVE_MIN = 40;

/**
 * The day's direction as the review's own numbers show it: "down" when every market's index
 * mean fell and decliners outnumber advancers (over the markets with breadth), "up" in the mirror case.
 */
export function dayDirection(markets: readonly Pick<TReviewMarket, "index_stats" | "breadth">[]): "up" | "down" | null {
  const means = markets.map((m) => m.index_stats.avg_change_pct).filter((v): v is number => v !== null);
  const withBreadth = markets.flatMap((m) => (m.breadth ? [m.breadth] : []));
  if (means.length === 0 || withBreadth.length === 0) return null;
  const advancers = withBreadth.reduce((s, b) => s + b.up_count, 0);
  const decliners = withBreadth.reduce((s, b) => s + b.down_count, 0);
  if (means.every((v) => v < 0) && decliners > advancers) return "down";
  if (means.every((v) => v > 0) && advancers > decliners) return "up";
  return null;
}

function temperatureFrom(
  components: TTemperatureComponent[],
  language: ReviewLanguage,
  direction: "up" | "down" | null = null,
): TTemperature {
  const max = components.reduce((s, c) => s + c.max, 0);
  if (max === 0) return { score: null, level: null, label: null, light: null, components };
  const points = components.reduce((s, c) => s + c.points, 0);
  let score = clamp(Math.round((points / max) * 100), 0, 100);
  if (direction === "down") score = Math.min(score, NOT_POSITIVE_MAX);
  if (direction === "up") score = Math.max(score, NOT_NEGATIVE_MIN);
  const hit = LEVELS.find((l) => score >= l.min)!;
  return {
    score,
    level: hit.level,
    label: hit.label[language],
    light: score >= 60 ? "green" : score >= 40 ? "yellow" : "red",
    components,
  };
}

function marketComponents(
  region: TMarket,
  avg: number | null,
  breadth: TReviewBreadth | null,
  language: ReviewLanguage,
): TTemperatureComponent[] {
  const out: TTemperatureComponent[] = [];
  const label = (key: TTemperatureComponent["key"]) => COMPONENT_LABELS[key][language];
  if (avg !== null) {
    out.push({
      region,
      key: "index",
      label: label("index"),
      value: avg,
      points: round(clamp(20 + 10 * avg, 0, TEMPERATURE_WEIGHTS.index), 2),
      max: TEMPERATURE_WEIGHTS.index,
    });
  }
  if (breadth && breadth.total > 0) {
    const share = breadth.up_count / breadth.total;
    out.push({
      region,
      key: "breadth",
      label: label("breadth"),
      value: breadth.advance_pct ?? 0,
      points: round(share * TEMPERATURE_WEIGHTS.breadth, 2),
      max: TEMPERATURE_WEIGHTS.breadth,
    });
  }
  const moves =
    breadth && breadth.limit_up_count !== null && breadth.limit_down_count !== null
      ? breadth.limit_up_count + breadth.limit_down_count
      : 0;
  // No limit move either way says nothing about the mood: the part is left out, and the score is scaled over the
  // parts measured (a made-up "50 %" of none would read as a figure).
  if (breadth && breadth.limit_up_count !== null && moves > 0) {
    const share = breadth.limit_up_count / moves;
    out.push({
      region,
      key: "limit",
      label: label("limit"),
      value: round(share * 100, 1),
      points: round(share * TEMPERATURE_WEIGHTS.limit, 2),
      max: TEMPERATURE_WEIGHTS.limit,
    });
  }
  return out;
}

// ---- one market -----------------------------------------------------------------------------------

const SECTOR_COUNT = 3;

function tradeDateOf(indices: TMarketOverview["indices"]): string | null {
  const counts = new Map<string, number>();
  for (const index of indices) {
    const day = index.quote?.time.slice(0, 10);
    if (day && /^\d{4}-\d{2}-\d{2}$/.test(day)) counts.set(day, (counts.get(day) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0].localeCompare(a[0]))[0]?.[0] ?? null;
}

const TURNOVER_UNIT: Record<TMarket, Record<ReviewLanguage, { unit: string; divisor: number }>> = {
  cn: { zh: { unit: "亿元", divisor: 1e8 }, en: { unit: "bn CNY", divisor: 1e9 } },
  hk: { zh: { unit: "亿港元", divisor: 1e8 }, en: { unit: "bn HKD", divisor: 1e9 } },
  us: { zh: { unit: "亿美元", divisor: 1e8 }, en: { unit: "bn USD", divisor: 1e9 } },
};

function amplitudeOf(quote: NonNullable<TMarketOverview["indices"][number]["quote"]>): number | null {
  const { high, low, prev_close: prev } = quote;
  return high !== null && low !== null && prev !== null && prev > 0 ? round(((high - low) / prev) * 100, 2) : null;
}

function indexStatsOf(indices: readonly TReviewIndex[]): TIndexStats {
  const quoted = indices.flatMap((i) => (i.change_pct === null ? [] : [i.change_pct]));
  return {
    up: quoted.filter((v) => v > 0).length,
    down: quoted.filter((v) => v < 0).length,
    flat: quoted.filter((v) => v === 0).length,
    avg_change_pct: quoted.length > 0 ? round(quoted.reduce((s, v) => s + v, 0) / quoted.length, 2) : null,
  };
}

function breadthOf(region: TMarket, b: TMarketOverview["breadth"], language: ReviewLanguage): TReviewBreadth | null {
  if (!b) return null;
  const total = b.advancers + b.decliners + b.flat;
  const turnover = TURNOVER_UNIT[region][language];
  return {
    up_count: b.advancers,
    down_count: b.decliners,
    flat_count: b.flat,
    total,
    advance_pct: total > 0 ? round((b.advancers / total) * 100, 1) : null,
    limit_up_count: b.limit_up,
    limit_down_count: b.limit_down,
    total_amount: b.total_amount === null ? null : round(b.total_amount / turnover.divisor, 2),
    turnover_unit: b.total_amount === null ? null : turnover.unit,
    universe: b.universe,
    source: b.source,
  };
}

export function reviewMarket(
  overview: TMarketOverview,
  language: ReviewLanguage,
  generatedAt: Date,
  news: readonly TReviewNews[] = [],
): TReviewMarket {
  const indices: TReviewIndex[] = overview.indices.map((index) => ({
    canonical_id: index.canonical_id,
    code: index.display_code,
    name: language === "en" ? index.name_en : index.name,
    current: index.quote?.price ?? null,
    change: index.quote?.change ?? null,
    change_pct: index.quote?.change_pct ?? null,
    open: index.quote?.open ?? null,
    high: index.quote?.high ?? null,
    low: index.quote?.low ?? null,
    volume: index.quote?.volume ?? null,
    amount: index.quote?.amount ?? null,
    amplitude: index.quote ? amplitudeOf(index.quote) : null,
    source: index.source,
    error: index.error,
  }));
  const stats = indexStatsOf(indices);
  const breadth = breadthOf(overview.region, overview.breadth, language);
  const sectors = overview.sectors
    ? {
        top: [...overview.sectors.gainers].sort((x, y) => y.change_pct - x.change_pct).slice(0, SECTOR_COUNT),
        bottom: [...overview.sectors.losers].sort((x, y) => x.change_pct - y.change_pct).slice(0, SECTOR_COUNT),
        source: overview.sectors.source,
      }
    : null;
  const label = REGION_LABELS[overview.region][language];
  const market: TReviewMarket = {
    version: 2,
    kind: "market_review",
    region: overview.region,
    language,
    title: label,
    label,
    generated_at: generatedAt.toISOString(),
    date: tradeDateOf(overview.indices),
    market_scope: overview.region,
    as_of: overview.as_of,
    source: overview.source,
    indices,
    index_stats: stats,
    breadth,
    breadth_note: overview.breadth_note,
    sectors,
    sectors_note: overview.sectors_note,
    market_light: temperatureFrom(
      marketComponents(overview.region, stats.avg_change_pct, breadth, language),
      language,
      dayDirection([{ index_stats: stats, breadth }]),
    ),
    news: news.filter((n) => n.region === overview.region),
    sections: [],
  };
  return { ...market, sections: regionSections(market) };
}

/** The regions of a review: the `markets` entries, or the review itself when it covers one region. */
export function reviewMarkets(p: TMarketReviewPayload): TReviewMarket[] {
  if (p.markets) return p.regions.flatMap((r) => (p.markets?.[r] ? [p.markets[r]] : []));
  const region = p.regions[0] ?? (p.region === "both" ? "cn" : p.region);
  return [{ ...p, region, title: p.label }];
}

/** The market had anything to review: a quoted index or breadth counts. */
export function hasMarketData(overview: TMarketOverview): boolean {
  return overview.indices.some((i) => i.quote !== null) || overview.breadth !== null;
}

/** Any part served by the sample provider makes the whole review sample data. */
export function usesSampleData(overview: TMarketOverview): boolean {
  return (
    overview.indices.some((i) => i.source === "sample") ||
    overview.breadth?.source === "sample" ||
    overview.sectors?.source === "sample"
  );
}

// ---- outlook and risks ----------------------------------------------------------------------------

const STANCE_LABELS: Record<TMarketReviewPayload["outlook"]["stance"], Record<ReviewLanguage, string>> = {
  offensive: { zh: "积极", en: "Constructive" },
  balanced: { zh: "均衡", en: "Balanced" },
  defensive: { zh: "防守", en: "Defensive" },
  unknown: { zh: "待定", en: "Undetermined" },
};

const STANCE_TEXT: Record<TMarketReviewPayload["outlook"]["stance"], Record<ReviewLanguage, string>> = {
  offensive: {
    zh: "市场情绪偏暖，可顺势关注走强方向，但不宜追高，分批参与并设好止损。",
    en: "Sentiment is warm: follow the stronger areas, but avoid chasing; scale in and keep stops.",
  },
  balanced: {
    zh: "多空相对均衡，以控制仓位、等待方向明确为主，低吸高抛优于追涨杀跌。",
    en: "Bulls and bears are balanced: keep positions moderate and wait for a clearer direction.",
  },
  defensive: {
    zh: "市场情绪偏弱，以防守为主，控制仓位，等待指数企稳和上涨家数回升的信号。",
    en: "Sentiment is weak: stay defensive, keep positions light and wait for indices to stabilise and breadth to improve.",
  },
  unknown: {
    zh: "数据不足，暂不给出方向判断。",
    en: "Not enough data for a directional view.",
  },
};

const STANCE_RULE: Record<ReviewLanguage, string> = {
  zh: "判定规则：温度 ≥ 60 且各市场上涨家数占比均不低于 50%（无宽度数据的市场不参与）→ 积极；温度 < 40 → 防守；其余 → 均衡。",
  en: "Stance rule: temperature ≥ 60 and every market's share of advancers at least 50% (markets without breadth are skipped) → constructive; temperature < 40 → defensive; otherwise balanced.",
};

function outlookOf(
  markets: TReviewMarket[],
  temperature: TTemperature,
  language: ReviewLanguage,
): TMarketReviewPayload["outlook"] {
  const score = temperature.score;
  const breadthOk = markets.every(
    (m) => m.breadth?.advance_pct === null || m.breadth?.advance_pct === undefined || m.breadth.advance_pct >= 50,
  );
  const stance: TMarketReviewPayload["outlook"]["stance"] =
    score === null ? "unknown" : score >= 60 && breadthOk ? "offensive" : score < 40 ? "defensive" : "balanced";
  const zh = language === "zh";
  const rules = [STANCE_RULE[language]];
  for (const m of markets) {
    const avg = m.index_stats.avg_change_pct;
    const adv = m.breadth?.advance_pct ?? null;
    if (avg === null || adv === null) continue;
    if (avg > 0 && adv < 40) {
      rules.push(
        zh
          ? `${m.label}：指数平均上涨 ${formatPct(avg)}，但上涨家数仅占 ${adv.toFixed(1)}%，指数与个股分化（规则：指数均值 > 0 且上涨占比 < 40%）。`
          : `${m.label}: indices rose ${formatPct(avg)} on average but only ${adv.toFixed(1)}% of stocks advanced – a narrow, divergent market (rule: index mean > 0 and advancers < 40%).`,
      );
    } else if (avg < 0 && adv > 60) {
      rules.push(
        zh
          ? `${m.label}：指数平均下跌 ${formatPct(avg)}，但上涨家数占 ${adv.toFixed(1)}%，个股强于指数（规则：指数均值 < 0 且上涨占比 > 60%）。`
          : `${m.label}: indices fell ${formatPct(avg)} on average while ${adv.toFixed(1)}% of stocks advanced – stocks stronger than the indices (rule: index mean < 0 and advancers > 60%).`,
      );
    }
  }
  const [first, second] = markets;
  const a = first?.index_stats.avg_change_pct ?? null;
  const b = second?.index_stats.avg_change_pct ?? null;
  if (first && second && a !== null && b !== null && Math.sign(a) !== Math.sign(b) && a !== 0 && b !== 0) {
    rules.push(
      zh
        ? `${first.label}（${formatPct(a)}）与${second.label}（${formatPct(b)}）方向相反，关注外围联动（规则：两地指数均值符号相反）。`
        : `${first.label} (${formatPct(a)}) and ${second.label} (${formatPct(b)}) moved in opposite directions; watch the cross-market spill-over (rule: opposite signs of the index means).`,
    );
  }
  return { stance, label: STANCE_LABELS[stance][language], text: STANCE_TEXT[stance][language], rules };
}

/** Moves at least this large (percent, either way) are called out as volatility. */
export const BIG_MOVE_PCT = 2;

function risksOf(markets: TReviewMarket[], news: TReviewNews[], isSample: boolean, language: ReviewLanguage): string[] {
  const zh = language === "zh";
  const risks: string[] = [];
  if (isSample)
    risks.push(
      zh
        ? "本复盘基于样本数据，数字不代表真实行情，不能据此交易。"
        : "This review rests on sample data: the numbers are not real market prices and must not be traded on.",
    );
  for (const m of markets) {
    for (const index of m.indices) {
      if (index.change_pct !== null && Math.abs(index.change_pct) >= BIG_MOVE_PCT) {
        risks.push(
          zh
            ? `${index.name}单日波动 ${formatPct(index.change_pct)}（≥ ${BIG_MOVE_PCT}%），注意短线波动放大。`
            : `${index.name} moved ${formatPct(index.change_pct)} in one day (≥ ${BIG_MOVE_PCT}%): expect wider short-term swings.`,
        );
      }
    }
    const b = m.breadth;
    if (b && b.limit_up_count !== null && b.limit_down_count !== null && b.limit_down_count > b.limit_up_count) {
      risks.push(
        zh
          ? `${m.label}跌停 ${b.limit_down_count} 家多于涨停 ${b.limit_up_count} 家，短线亏钱效应偏强。`
          : `${m.label}: ${b.limit_down_count} limit-down versus ${b.limit_up_count} limit-up stocks – short-term losses dominate.`,
      );
    }
    if (!b)
      risks.push(
        zh
          ? `${m.label}缺少涨跌家数数据，市场温度仅按指数计算。`
          : `${m.label}: no advance/decline data, so the temperature rests on the indices alone.`,
      );
    const missing = m.indices.filter((i) => i.current === null);
    if (missing.length > 0) {
      const names = missing.map((i) => i.name).join(zh ? "、" : ", ");
      risks.push(
        zh
          ? `${m.label}有 ${missing.length} 个指数未取得行情（${names}）。`
          : `${m.label}: no quote for ${missing.length} ${missing.length === 1 ? "index" : "indices"} (${names}).`,
      );
    }
  }
  if (news.length === 0)
    risks.push(
      zh
        ? "未检索到大盘相关新闻，判断仅基于行情数据。"
        : "No market news was found: the view rests on price data only.",
    );
  risks.push(
    zh
      ? "政策变化、外围市场与突发事件可能迅速改变短线走势。"
      : "Policy changes, overseas markets and unexpected events can quickly change the short-term picture.",
  );
  return risks;
}

// ---- payload --------------------------------------------------------------------------------------

export interface RulePayloadInput {
  region: TMarketReviewRegion;
  overviews: TMarketOverview[];
  news: { region: TMarket; item: TNewsItem }[];
  language: ReviewLanguage;
  generatedAt: Date;
}

function dataSourceOf(overviews: TMarketOverview[]): string | null {
  const sources = new Set(overviews.map((o) => o.source).filter((s): s is NonNullable<typeof s> => s !== null));
  if (sources.size === 0) return null;
  return sources.size === 1 ? [...sources][0]! : "mixed";
}

function summaryOf(
  markets: TReviewMarket[],
  temperature: TTemperature,
  outlook: TMarketReviewPayload["outlook"],
  language: ReviewLanguage,
): string {
  const zh = language === "zh";
  const parts = markets.map((m) => {
    const s = m.index_stats;
    const quoted = s.up + s.down + s.flat;
    const idx =
      quoted === 0
        ? zh
          ? "主要指数无行情"
          : "no index quotes"
        : zh
          ? `${quoted} 个主要指数 ${s.up} 涨 ${s.down} 跌，平均 ${formatPct(s.avg_change_pct ?? 0)}`
          : `${s.up} of ${quoted} main indices up, ${s.down} down, average ${formatPct(s.avg_change_pct ?? 0)}`;
    const breadth = m.breadth
      ? zh
        ? `，上涨 ${m.breadth.up_count} 家、下跌 ${m.breadth.down_count} 家`
        : `; ${m.breadth.up_count} advancers, ${m.breadth.down_count} decliners`
      : "";
    return `${m.label}${zh ? "：" : ": "}${idx}${breadth}`;
  });
  const temp =
    temperature.score === null
      ? zh
        ? "市场温度无法计算"
        : "temperature not available"
      : zh
        ? `市场温度 ${temperature.score}/100（${temperature.label}）`
        : `market temperature ${temperature.score}/100 (${temperature.label})`;
  return zh
    ? `${parts.join("；")}；${temp}，展望：${outlook.label}。`
    : `${parts.join("; ")}; ${temp}, outlook: ${outlook.label}.`;
}

function titleOf(
  region: TMarketReviewRegion,
  markets: TReviewMarket[],
  generatedAt: Date,
  language: ReviewLanguage,
): string {
  const first = regionsOf(region)[0]!;
  const date = markets.find((m) => m.date)?.date ?? localParts(generatedAt, MARKET_TIME_ZONE[first]).date;
  const label = regionLabel(region, language);
  return language === "zh" ? `大盘复盘（${label}）${date}` : `Market review (${label}) ${date}`;
}

/** The rule-based payload: engine "rules", no model. The LLM path reuses it and only swaps the text (withReviewText). */
export function buildRulePayload(input: RulePayloadInput): TMarketReviewPayload {
  const { language } = input;
  const news: TReviewNews[] = input.news.map(({ region, item }) => ({
    title: item.title,
    url: item.url,
    source: item.source || null,
    published_at: item.published_at,
    region,
  }));
  const markets = input.overviews.map((o) => reviewMarket(o, language, input.generatedAt, news));
  const temperature = temperatureFrom(
    markets.flatMap((m) => m.market_light.components),
    language,
    dayDirection(markets),
  );
  const isSample = input.overviews.some(usesSampleData);
  const outlook = outlookOf(markets, temperature, language);
  const title = titleOf(input.region, markets, input.generatedAt, language);
  const single = markets.length === 1 ? markets[0]! : null;
  const regionData = single
    ? { ...single, title }
    : {
        version: 2 as const,
        kind: "market_review" as const,
        language,
        title,
        label: regionLabel(input.region, language),
        generated_at: input.generatedAt.toISOString(),
        date: markets.find((m) => m.date)?.date ?? null,
        market_scope: markets.map((m) => m.region).join(","),
        as_of: input.generatedAt.toISOString(),
        source: dataSourceOf(input.overviews),
        indices: [],
        index_stats: indexStatsOf(markets.flatMap((m) => m.indices)),
        breadth: null,
        breadth_note: null,
        sectors: null,
        sectors_note: null,
        sections: [],
      };
  const draft: TMarketReviewPayload = {
    ...regionData,
    region: input.region,
    regions: markets.map((m) => m.region),
    root_title: title,
    market_light: temperature,
    engine: "rules",
    model: null,
    data_source: dataSourceOf(input.overviews),
    is_sample_data: isSample,
    sample_notice: isSample ? SAMPLE_DATA_NOTICE[language] : null,
    summary: summaryOf(markets, temperature, outlook, language),
    ...(single ? {} : { markets: Object.fromEntries(markets.map((m) => [m.region, m])) }),
    news,
    outlook,
    risks: risksOf(markets, news, isSample, language),
    disclaimer: REVIEW_DISCLAIMER[language],
    markdown_report: "",
  };
  return withReviewText(draft, renderRuleBody(draft));
}

/** The review's text set into the payload: its sections (split at the level-3 headings) and the whole Markdown. */
export function withReviewText(p: TMarketReviewPayload, body: string): TMarketReviewPayload {
  return { ...p, sections: splitSections(body), markdown_report: renderFullReport(p, body) };
}

function slug(title: string, index: number): string {
  const s = title
    .toLowerCase()
    .replace(/[^a-z0-9\u4e00-\u9fa5]+/g, "-")
    .replace(/^-|-$/g, "");
  return s || `section-${index + 1}`;
}

/** Markdown cut at its `### ` headings; text before the first heading becomes an untitled lead section. */
export function splitSections(markdown: string): TReviewSection[] {
  const out: TReviewSection[] = [];
  const parts = markdown.split(/^### +/m);
  const lead = parts.shift()?.trim() ?? "";
  if (lead) out.push({ key: "lead", title: "", markdown: lead });
  parts.forEach((part, index) => {
    const newline = part.indexOf("\n");
    const title = (newline === -1 ? part : part.slice(0, newline)).trim();
    const body = newline === -1 ? "" : part.slice(newline + 1).trim();
    out.push({ key: slug(title, index), title, markdown: body });
  });
  return out;
}

// ---- text -----------------------------------------------------------------------------------------

const DASH = "—";

function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

function signed(value: number): string {
  const text = value.toFixed(2);
  return value > 0 ? `+${text}` : text;
}

function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  if (!/^https?:\/\//i.test(trimmed)) return null;
  return trimmed
    .replace(/ /g, "%20")
    .replace(/\(/g, "%28")
    .replace(/\)/g, "%29")
    .replace(/</g, "%3C")
    .replace(/>/g, "%3E");
}

const T = {
  zh: {
    overview: "市场概览",
    indices: (label: string) => `${label}：指数表现`,
    head: ["指数", "代码", "最新", "涨跌", "涨跌幅"],
    noQuote: "无行情",
    indexStats: (up: number, down: number, flat: number, avg: string) =>
      `主要指数 ${up} 涨 ${down} 跌 ${flat} 平，平均涨跌幅 ${avg}。`,
    breadthTitle: "市场宽度",
    breadth: (b: TReviewBreadth) =>
      `上涨 ${b.up_count} 家，下跌 ${b.down_count} 家，平盘 ${b.flat_count} 家（统计范围：${b.universe}），上涨家数占比 ${b.advance_pct === null ? DASH : `${b.advance_pct.toFixed(1)}%`}。`,
    limits: (up: number, down: number) => `涨停 ${up} 家，跌停 ${down} 家。`,
    turnover: (amount: number, unit: string) => `成交额 ${amount.toFixed(2)} ${unit}。`,
    noLimits: "涨跌停家数：暂无数据。",
    noBreadth: "涨跌家数：暂无数据源提供。",
    sectorsTitle: "板块表现",
    leaders: "领涨板块",
    laggards: "领跌板块",
    noSectors: "板块排行：暂无数据源提供。",
    temperature: "市场温度",
    tempLine: (t: TTemperature) =>
      t.score === null ? "市场温度：数据不足，无法计算。" : `市场温度 **${t.score} / 100（${t.label}）**。`,
    tempHead: ["市场", "项目", "数值", "得分", "满分"],
    news: "消息面",
    noNews: "未检索到大盘相关新闻（未配置新闻搜索或无结果）。",
    outlook: "后市展望",
    stance: "展望",
    risks: "风险提示",
    colon: "：",
    listSep: "、",
    sentenceEnd: "。",
    scoreWithLabel: (score: number, label: string) => `${score} / 100（${label}）`,
  },
  en: {
    overview: "Overview",
    indices: (label: string) => `${label}: indices`,
    head: ["Index", "Code", "Last", "Change", "Change %"],
    noQuote: "no quote",
    indexStats: (up: number, down: number, flat: number, avg: string) =>
      `Main indices: ${up} up, ${down} down, ${flat} flat; average change ${avg}.`,
    breadthTitle: "Breadth",
    breadth: (b: TReviewBreadth) =>
      `${b.up_count} advancers, ${b.down_count} decliners, ${b.flat_count} unchanged (counted: ${b.universe}); advancers ${b.advance_pct === null ? DASH : `${b.advance_pct.toFixed(1)}%`} of the total.`,
    limits: (up: number, down: number) => `${up} limit-up, ${down} limit-down.`,
    turnover: (amount: number, unit: string) => `Turnover ${amount.toFixed(2)} ${unit}.`,
    noLimits: "Limit-up/limit-down counts: not available.",
    noBreadth: "Advance/decline counts: no provider has them.",
    sectorsTitle: "Sectors",
    leaders: "Leading sectors",
    laggards: "Lagging sectors",
    noSectors: "Sector rankings: no provider has them.",
    temperature: "Market temperature",
    tempLine: (t: TTemperature) =>
      t.score === null
        ? "Market temperature: not enough data."
        : `Market temperature **${t.score} / 100 (${t.label})**.`,
    tempHead: ["Market", "Part", "Value", "Points", "Max"],
    news: "News",
    noNews: "No market news was found (no news search configured, or no results).",
    outlook: "Outlook",
    stance: "Stance",
    risks: "Risks",
    colon: ": ",
    listSep: ", ",
    sentenceEnd: ". ",
    scoreWithLabel: (score: number, label: string) => `${score} / 100 (${label})`,
  },
} as const;

function table(head: readonly string[], rows: string[][]): string[] {
  return [
    `| ${head.map(cell).join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

function marketLines(m: TReviewMarket, language: ReviewLanguage): string[] {
  const t = T[language];
  const rows = m.indices.map((i) => [
    i.name,
    i.code,
    i.current === null ? t.noQuote : formatPrice(i.current),
    i.change === null ? DASH : signed(i.change),
    i.change_pct === null ? DASH : formatPct(i.change_pct),
  ]);
  const out = [...table(t.head, rows), ""];
  const s = m.index_stats;
  if (s.avg_change_pct !== null) out.push(t.indexStats(s.up, s.down, s.flat, formatPct(s.avg_change_pct)), "");
  out.push(`**${t.breadthTitle}**${t.colon}${m.breadth ? t.breadth(m.breadth) : t.noBreadth}`);
  if (m.breadth) {
    const { limit_up_count: up, limit_down_count: down, total_amount: amount, turnover_unit: unit } = m.breadth;
    out.push("", up !== null && down !== null ? t.limits(up, down) : t.noLimits);
    if (amount !== null && unit !== null) out.push("", t.turnover(amount, unit));
  }
  out.push("");
  if (m.sectors) {
    const list = (xs: { name: string; change_pct: number }[]) =>
      xs.length === 0 ? DASH : xs.map((x) => `${oneLine(x.name)} ${formatPct(x.change_pct)}`).join(t.listSep);
    out.push(
      `**${t.leaders}**${t.colon}${list(m.sectors.top)}`,
      "",
      `**${t.laggards}**${t.colon}${list(m.sectors.bottom)}`,
    );
  } else {
    out.push(t.noSectors);
  }
  return out;
}

function marketSection(m: TReviewMarket, language: ReviewLanguage): string[] {
  return [`### ${T[language].indices(m.label)}`, "", ...marketLines(m, language)];
}

/** A region's own cards for the reference's client: its indices and breadth, and its temperature. */
function regionSections(m: TReviewMarket): TReviewSection[] {
  const t = T[m.language];
  const temp = [
    t.tempLine(m.market_light),
    "",
    ...table(t.tempHead, componentRows(m.market_light, new Map([[m.region, m.label]]))),
  ];
  return [
    { key: "indices", title: t.indices(m.label), markdown: marketLines(m, m.language).join("\n").trim() },
    { key: "temperature", title: t.temperature, markdown: temp.join("\n") },
  ];
}

function componentRows(temperature: TTemperature, labels: Map<string, string>): string[][] {
  return temperature.components.map((c) => [
    labels.get(c.region) ?? c.region,
    c.label,
    c.key === "index" ? formatPct(c.value) : `${c.value.toFixed(1)}%`,
    c.points.toFixed(1),
    String(c.max),
  ]);
}

function temperatureSection(p: TMarketReviewPayload): string[] {
  const language = p.language;
  const t = T[language];
  const markets = reviewMarkets(p);
  const labels = new Map(markets.map((m) => [m.region, m.label]));
  const rows = componentRows(p.market_light, labels);
  const out = [`### ${t.temperature}`, "", t.tempLine(p.market_light)];
  if (markets.length > 1) {
    out.push("");
    for (const m of markets) {
      if (m.market_light.score !== null)
        out.push(`- ${m.label}${t.colon}${t.scoreWithLabel(m.market_light.score, m.market_light.label ?? "")}`);
    }
  }
  if (rows.length > 0) out.push("", ...table(t.tempHead, rows));
  out.push("", TEMPERATURE_RULE[language]);
  return out;
}

function newsSection(p: TMarketReviewPayload): string[] {
  const t = T[p.language];
  if (p.news.length === 0) return [`### ${t.news}`, "", t.noNews];
  const lines = p.news.map((n) => {
    const url = safeUrl(n.url);
    const title = oneLine(n.title).replace(/([\\[\]])/g, "\\$1");
    const extra = [n.source, n.published_at?.slice(0, 10)]
      .filter((v): v is string => Boolean(v && v.trim()))
      .map(oneLine);
    return `- ${url ? `[${title}](${url})` : title}${extra.length > 0 ? ` (${extra.join(" · ")})` : ""}`;
  });
  return [`### ${t.news}`, "", ...lines];
}

function outlookSection(p: TMarketReviewPayload): string[] {
  const t = T[p.language];
  return [
    `### ${t.outlook}`,
    "",
    `**${t.stance}${t.colon}${p.outlook.label}**${t.sentenceEnd}${p.outlook.text}`,
    "",
    ...p.outlook.rules.map((r) => `- ${oneLine(r)}`),
  ];
}

function risksSection(p: TMarketReviewPayload): string[] {
  return [`### ${T[p.language].risks}`, "", ...p.risks.map((r) => `- ${oneLine(r)}`)];
}

function join(sections: string[][]): string {
  return sections
    .filter((s) => s.length > 0)
    .map((s) => s.join("\n"))
    .join("\n\n");
}

/** Data sections every review carries, whoever wrote the narrative: index tables, breadth, sectors, temperature. */
export function renderDataSections(p: TMarketReviewPayload): string {
  return join([...reviewMarkets(p).map((m) => marketSection(m, p.language)), temperatureSection(p)]);
}

/**
 * The rule-based review body (level-3 headings, so it nests under the history Markdown's own "Review"
 * section). Without title and disclaimer: renderFullReport adds those for the standalone text.
 */
export function renderRuleBody(p: TMarketReviewPayload): string {
  const t = T[p.language];
  return join([
    p.sample_notice ? [`> ${p.sample_notice}`] : [],
    [`### ${t.overview}`, "", p.summary],
    [renderDataSections(p)],
    newsSection(p),
    outlookSection(p),
    risksSection(p),
  ]);
}

/** The standalone review (the task's market_review_report): title, body and disclaimer. */
export function renderFullReport(p: TMarketReviewPayload, body: string): string {
  return `# ${oneLine(p.title)}\n\n${body.trim()}\n\n---\n\n*${p.disclaimer}*\n`;
}

/**
 * The review's text for a page that shows the numbers beside it (the Market page): without the index tables and
 * the temperature section, which the page draws as its own tables, and without the scoring rules, which stay in the
 * stored Markdown (the record and its export) for whoever checks them.
 */
export function narrativeOf(p: TMarketReviewPayload): string {
  const t = T[p.language];
  const indexTitles = new Set(reviewMarkets(p).map((m) => t.indices(m.label)));
  const rules = new Set(p.outlook.rules.map((r) => `- ${oneLine(r)}`));
  return p.sections
    .filter((s) => s.title !== t.temperature)
    .map((s) => {
      let lines = s.markdown.split("\n");
      if (indexTitles.has(s.title)) lines = lines.filter((l) => !l.trimStart().startsWith("|"));
      if (s.title === t.outlook) lines = lines.filter((l) => !rules.has(l.trim()));
      const body = lines
        .join("\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
      return s.title ? `### ${s.title}\n\n${body}` : body;
    })
    .join("\n\n");
}
