import { regionLabel } from "@/lib/market-review/rules";
import type { TAlertType, TTargetScope } from "./parameters";

// The default name of a rule (a blank name on create), in the service's report language (REPORT_LANGUAGE).

type Lang = "zh" | "en";
type Params = Record<string, unknown>;

const ACTION_ZH: Record<string, string> = {
  buy: "买入",
  add: "加仓",
  hold: "持有",
  reduce: "减仓",
  sell: "卖出",
  watch: "观望",
  avoid: "回避",
  alert: "预警",
};
const LIGHT_ZH: Record<string, string> = { red: "红灯", yellow: "黄灯" };

function targetLabel(scope: TTargetScope, target: string, zh: boolean): string {
  switch (scope) {
    case "single_symbol":
      return target;
    case "watchlist":
      return zh ? "自选股" : "Watchlist";
    case "portfolio_holdings":
      return target === "all"
        ? zh
          ? "全部持仓"
          : "All holdings"
        : zh
          ? `账户 #${target} 持仓`
          : `Holdings of account #${target}`;
    case "portfolio_account":
      return target === "all" ? (zh ? "全部账户" : "All accounts") : zh ? `账户 #${target}` : `Account #${target}`;
    case "market":
      return regionLabel(target as "cn", zh ? "zh" : "en");
  }
}

function condition(type: TAlertType, p: Params, zh: boolean): string {
  const up = p.direction === "above" || p.direction === "up" || p.direction === "bullish_cross";
  switch (type) {
    case "price_cross":
      return zh ? `价格${up ? "上穿" : "下穿"} ${p.price}` : `price crosses ${up ? "above" : "below"} ${p.price}`;
    case "price_change_percent":
      return zh
        ? `日${up ? "涨" : "跌"}幅达到 ${p.change_pct}%`
        : `daily change ${up ? "up" : "down"} ${p.change_pct}%`;
    case "volume_spike":
      return zh ? `量比达到 ${p.multiplier} 倍` : `volume ratio at least ${p.multiplier}×`;
    case "ma_price_cross":
      return zh
        ? `收盘价${up ? "上穿" : "下穿"} MA${p.window}`
        : `close crosses ${up ? "above" : "below"} MA${p.window}`;
    case "rsi_threshold":
      return zh
        ? `RSI${p.period} ${up ? "上穿" : "下穿"} ${p.threshold}`
        : `RSI${p.period} crosses ${up ? "above" : "below"} ${p.threshold}`;
    case "macd_cross":
      return zh ? `MACD ${up ? "金叉" : "死叉"}` : `MACD ${up ? "bullish" : "bearish"} cross`;
    case "kdj_cross":
      return zh ? `KDJ ${up ? "金叉" : "死叉"}` : `KDJ ${up ? "bullish" : "bearish"} cross`;
    case "cci_threshold":
      return zh
        ? `CCI${p.period} ${up ? "上穿" : "下穿"} ${p.threshold}`
        : `CCI${p.period} crosses ${up ? "above" : "below"} ${p.threshold}`;
    case "portfolio_stop_loss":
      return p.mode === "near"
        ? zh
          ? "持仓接近止损"
          : "a holding near its stop loss"
        : zh
          ? "持仓触发止损"
          : "a holding past its stop loss";
    case "portfolio_concentration":
      return zh ? "持仓集中度超限" : "concentration above the limit";
    case "portfolio_drawdown":
      return zh ? "组合回撤超限" : "drawdown above the limit";
    case "portfolio_price_stale":
      return zh ? "持仓价格过期" : "stale holding prices";
    case "market_light_status": {
      const statuses = Array.isArray(p.statuses) ? (p.statuses as string[]) : [];
      return zh ? `大盘${statuses.map((s) => LIGHT_ZH[s] ?? s).join("/")}` : `market light ${statuses.join("/")}`;
    }
    case "market_light_score_drop":
      return zh ? `大盘温度较前一交易日下降 ${p.min_drop} 分` : `market light score down ${p.min_drop} points`;
    case "signal_action":
      return zh ? `新${ACTION_ZH[String(p.action)] ?? p.action}信号` : `new ${p.action} signal`;
  }
}

export function describeRule(
  type: TAlertType,
  scope: TTargetScope,
  target: string,
  parameters: Params,
  language: Lang = "zh",
): string {
  const zh = language === "zh";
  return `${targetLabel(scope, target, zh)} ${condition(type, parameters, zh)}`.slice(0, 100);
}
