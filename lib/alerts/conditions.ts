import type { TQuote } from "@/lib/market";
import type { TAlertParameters, TAlertType } from "./schemas";

export interface ConditionResult {
  met: boolean;
  observed: number | null;
  threshold: number | null;
  reason: string;
}

const round = (v: number) => Math.round(v * 10_000) / 10_000;

/** A quote-based rule against the latest quote; null observed when the quote lacks the field. */
export function checkQuoteCondition(type: Exclude<TAlertType, "signal_action">, parameters: TAlertParameters, quote: TQuote): ConditionResult {
  switch (type) {
    case "price_above": {
      const threshold = parameters.price!;
      return { met: quote.price > threshold, observed: quote.price, threshold, reason: `price ${quote.price} ${quote.price > threshold ? ">" : "<="} ${threshold}` };
    }
    case "price_below": {
      const threshold = parameters.price!;
      return { met: quote.price < threshold, observed: quote.price, threshold, reason: `price ${quote.price} ${quote.price < threshold ? "<" : ">="} ${threshold}` };
    }
    case "change_pct_beyond": {
      const threshold = parameters.change_pct!;
      const observed = round(quote.change_pct);
      const met = Math.abs(observed) >= threshold;
      return { met, observed, threshold, reason: `daily change ${observed}% ${met ? "beyond" : "within"} ±${threshold}%` };
    }
    case "volume_ratio_above": {
      const threshold = parameters.ratio!;
      if (quote.volume_ratio === null) return { met: false, observed: null, threshold, reason: "the quote has no volume ratio" };
      const observed = round(quote.volume_ratio);
      const met = observed >= threshold;
      return { met, observed, threshold, reason: `volume ratio ${observed} ${met ? ">=" : "<"} ${threshold}` };
    }
  }
}

const ACTION_ZH: Record<string, string> = { buy: "买入", add: "加仓", hold: "持有", reduce: "减仓", sell: "卖出", watch: "观望", avoid: "回避", alert: "预警" };

/** The default name of a rule, in the service's report language (REPORT_LANGUAGE). */
export function describeRule(type: TAlertType, target: string, parameters: TAlertParameters, language: "zh" | "en" = "zh"): string {
  const zh = language === "zh";
  switch (type) {
    case "price_above":
      return zh ? `${target} 价格高于 ${parameters.price}` : `${target} price above ${parameters.price}`;
    case "price_below":
      return zh ? `${target} 价格低于 ${parameters.price}` : `${target} price below ${parameters.price}`;
    case "change_pct_beyond":
      return zh ? `${target} 日涨跌幅超过 ±${parameters.change_pct}%` : `${target} daily change beyond ±${parameters.change_pct}%`;
    case "volume_ratio_above":
      return zh ? `${target} 量比高于 ${parameters.ratio}` : `${target} volume ratio above ${parameters.ratio}`;
    case "signal_action":
      return zh ? `${target} 新${ACTION_ZH[parameters.action ?? ""] ?? parameters.action}信号` : `${target} new ${parameters.action} signal`;
  }
}
