import { actionLabel, type TDecisionAction, type TReportLanguage } from "@/lib/analysis/engine";
import type { TEvidenceScope } from "./schemas";

// The evidence in one or two plain sentences (docs/api.md §13): the stock's own record first, then the market's.
// "No measurable edge" is said in so many words whenever the stock's verdict is that; no sentence claims more skill
// than its verdict shows.

const signed = (v: number | null) => (v === null ? "–" : `${v > 0 ? "+" : ""}${v.toFixed(2)}%`);

const VERDICT_WORDS: Record<TEvidenceScope["verdict"], Record<TReportLanguage, string>> = {
  edge: {
    zh: "过去的记录显示出可测量的优势（历史不代表未来）",
    en: "a measurable edge in the past record (not a promise)",
  },
  no_measurable_edge: { zh: "没有可测量的优势", en: "no measurable edge" },
  adverse: { zh: "表现差于该股其他交易日（不利记录）", en: "worse than the stock's other days (an adverse record)" },
  insufficient: {
    zh: "独立样本太少，无法判断，不能声称有优势",
    en: "too few independent calls to judge, so no edge can be claimed",
  },
};

function stockSentence(s: TEvidenceScope, label: string, l: TReportLanguage): string {
  const words = VERDICT_WORDS[s.verdict][l];
  if (s.verdict === "insufficient") {
    return l === "zh"
      ? `本股历史数据上，规则引擎共给出 ${s.n_calls} 次「${label}」（${s.n_independent} 次互不重叠）：${words}。`
      : `On this stock's own bars the engine made ${s.n_calls} "${label}" calls (${s.n_independent} independent): ${words}.`;
  }
  const interval = `${signed(s.ci95_low_pct)} ~ ${signed(s.ci95_high_pct)}`;
  return l === "zh"
    ? `本股 ${s.period_start} 至 ${s.period_end} 的 ${s.n_calls} 次「${label}」（${s.n_independent} 次互不重叠）` +
        `10日收益相对该股其他交易日 ${signed(s.mean_excess_pct)}（95% 区间 ${interval}）：${words}。`
    : `On this stock's own bars (${s.period_start} → ${s.period_end}) the engine's ${s.n_calls} "${label}" calls ` +
        `(${s.n_independent} independent) returned ${signed(s.mean_excess_pct)} over 10 days against the stock's other days ` +
        `(95% interval ${signed(s.ci95_low_pct)} to ${signed(s.ci95_high_pct)}): ${words}.`;
}

function marketSentence(s: TEvidenceScope, label: string, l: TReportLanguage): string {
  const words = VERDICT_WORDS[s.verdict][l];
  return l === "zh"
    ? `在${s.universe ?? "同市场股票"}上，「${label}」${words}（${signed(s.mean_excess_pct)}，${s.n_calls} 次）。`
    : `Across ${s.universe ?? "the market's stocks"}, "${label}" calls show ${words} (${signed(s.mean_excess_pct)}, n = ${s.n_calls}).`;
}

export function evidenceStatement(
  action: TDecisionAction | null,
  scopes: readonly TEvidenceScope[],
  language: TReportLanguage,
  sample = false,
): string {
  const l = language;
  if (action === null)
    return l === "zh"
      ? "本报告没有给出操作判断，无记录可评估。"
      : "This report makes no call, so there is no record to judge.";
  const label = actionLabel(action, l)!;
  const stock = scopes.find((s) => s.scope === "stock");
  const market = scopes.find((s) => s.scope === "market");
  const first = stock
    ? stockSentence(stock, label, l)
    : sample
      ? l === "zh"
        ? "示例数据是合成的价格，规则引擎在其上的记录不能说明任何能力：不计算本股记录，不能声称有优势。"
        : "Sample data are synthetic prices: the engine's record on them says nothing about its skill, so none is computed and no edge can be claimed."
      : l === "zh"
        ? `本股已存数据上规则引擎从未给出「${label}」，没有可评估的记录，不能声称有优势。`
        : `The engine never made a "${label}" call on this stock's stored bars: there is no record to judge, so no edge can be claimed.`;
  return market ? `${first} ${marketSentence(market, label, l)}` : first;
}
