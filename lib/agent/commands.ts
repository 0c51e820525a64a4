import { analyzeRequest } from "@/lib/analysis/analyze";
import { ZAnalyzeRequest } from "@/lib/analysis/schemas";
import { ApiError } from "@/lib/errors/api-error";
import { dictionaryOf } from "@/lib/i18n/dictionaries";
import { codeLabel } from "@/lib/i18n/labels";
import { addToWatchlist, getWatchlist, removeFromWatchlist } from "@/lib/watchlist/store";
import { SLASH_COMMANDS } from "./models";
import { ToolRecorder, toolErrorMessage } from "./tools";
import { localParts, MARKET_TIME_ZONE } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import { backtestData, latestReportsData, marketData, quoteData, signalsData, type Language } from "./tool-data";

// Commands that work with no LLM key: answered from the service's own data through the same
// recorder (tool_start/tool_done events, stored tool calls) and written in the UI language. Every figure in an
// answer is printed from the tool output it came from, so the answer check verifies all of them.

type Texts = Record<Language, string>;
const t = (texts: Texts, lang: Language) => texts[lang];

const HELP: Record<(typeof SLASH_COMMANDS)[number], Texts> = {
  "/analyze": {
    zh: "`/analyze <代码>` 运行一次分析并保存报告（规则引擎，配置模型时含 AI）",
    en: "`/analyze <code>` run an analysis and store the report (rule engine, plus the model when one is configured)",
  },
  "/quote": { zh: "`/quote <代码>` 现价、涨跌幅与日内区间", en: "`/quote <code>` price, change and day range" },
  "/market": { zh: "`/market [cn|hk|us]` 市场指数与涨跌家数", en: "`/market [cn|hk|us]` indices and breadth" },
  "/history": { zh: "`/history <代码>` 最近保存的报告", en: "`/history <code>` the latest stored reports" },
  "/signals": { zh: "`/signals [代码]` 决策信号及其计划", en: "`/signals [code]` decision signals and their plans" },
  "/backtest": {
    zh: "`/backtest <代码>` 历史报告的回测表现",
    en: "`/backtest <code>` how past reports on the stock did",
  },
  "/watch": {
    zh: "`/watch [add|remove <代码>]` 查看自选股，或加入、移出一只",
    en: "`/watch [add|remove <code>]` the watchlist, or add or remove a stock",
  },
  "/help": { zh: "`/help` 显示本帮助", en: "`/help` this help" },
};

export function helpText(lang: Language, intro?: string): string {
  const head = intro ?? t({ zh: "可用命令（无需 AI 模型）：", en: "Commands (no AI model needed):" }, lang);
  return [head, "", ...SLASH_COMMANDS.map((c) => `- ${t(HELP[c], lang)}`)].join("\n");
}

export function noLlmAnswer(lang: Language): string {
  const intro = t(
    {
      zh: "自由提问需要配置 AI 模型渠道（设置 → AI 模型：`LLM_CHANNELS` 或 `OPENAI_API_KEY`）。下面的命令无需模型即可使用：",
      en: "Free questions need an AI model channel (Settings → AI model: `LLM_CHANNELS` or `OPENAI_API_KEY`). These commands work without one:",
    },
    lang,
  );
  return helpText(lang, intro);
}

export function isCommand(message: string): boolean {
  return /^\/[a-z]+\b/i.test(message.trim());
}

function fmt(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return value.toFixed(digits);
}

function pct(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}%`;
}

function sampleNote(isSample: boolean, lang: Language): string {
  return isSample
    ? t(
        {
          zh: "\n\n> 样例数据（sample 数据源），不是实时行情。",
          en: "\n\n> Sample data (the sample provider), not live market data.",
        },
        lang,
      )
    : "";
}

function usage(command: string, lang: Language): string {
  const key = command as keyof typeof HELP;
  return t({ zh: "用法：", en: "Usage: " }, lang) + (HELP[key] ? t(HELP[key], lang) : command);
}

/** Runs one slash command; returns the Markdown answer. Data failures become an answer that says what failed. */
export async function runCommand(message: string, recorder: ToolRecorder, signal?: AbortSignal): Promise<string> {
  const lang = recorder.language;
  const [rawCommand = "", ...args] = message.trim().split(/\s+/);
  const command = rawCommand.toLowerCase();
  const arg = args.join(" ").trim();
  try {
    switch (command) {
      case "/help":
        return helpText(lang);
      case "/quote":
        return arg ? await quoteAnswer(arg, recorder) : usage(command, lang);
      case "/market":
        return await marketAnswer(arg, recorder);
      case "/history":
        return arg ? await historyAnswer(arg, recorder) : usage(command, lang);
      case "/signals":
        return await signalsAnswer(arg || null, recorder);
      case "/backtest":
        return arg ? await backtestAnswer(arg, recorder) : usage(command, lang);
      case "/analyze":
        return arg ? await analyzeAnswer(arg, recorder, signal) : usage(command, lang);
      case "/watch":
        return await watchAnswer(args, recorder);
      default:
        return helpText(
          lang,
          t({ zh: `未知命令 \`${command}\`。可用命令：`, en: `Unknown command \`${command}\`. Commands:` }, lang),
        );
    }
  } catch (error) {
    return t({ zh: "未能完成：", en: "Could not answer: " }, lang) + toolErrorMessage(error);
  }
}

async function quoteAnswer(code: string, recorder: ToolRecorder): Promise<string> {
  const lang = recorder.language;
  const q = await recorder.run("get_realtime_quote", { code }, () => quoteData(code, lang));
  const when = quoteWhen(q, lang);
  const head = `**${q.name ?? q.code}（${q.code}）**`;
  const lines = [
    lang === "zh"
      ? `${head} 现价 ${fmt(q.price)}，涨跌 ${pct(q.change_pct)}`
      : `${head} price ${fmt(q.price)}, change ${pct(q.change_pct)}`,
  ];
  if (q.high !== null && q.low !== null)
    lines.push(lang === "zh" ? `日内区间 ${fmt(q.low)} – ${fmt(q.high)}` : `Day range ${fmt(q.low)} – ${fmt(q.high)}`);
  lines.push(
    lang === "zh"
      ? `${q.basis === "quote" ? "报价" : "收盘"}时间 ${when}，来源 ${q.source}`
      : `${q.basis === "quote" ? "Quote" : "Close"} of ${when}, source ${q.source}`,
  );
  return lines.join("\n\n") + sampleNote(q.is_sample_data, lang);
}

const ZONE_NAMES: Record<TMarket, Record<Language, string>> = {
  cn: { zh: "北京时间", en: "Beijing time" },
  hk: { zh: "香港时间", en: "Hong Kong time" },
  us: { zh: "美东时间", en: "New York time" },
};

/**
 * When the price is from: a quote's date and clock time both in the market's own zone, named; a close, its session
 * date. (The quote's instant is UTC: its clock time beside the market's date read as a time a day off.)
 */
export function quoteWhen(q: { market: TMarket; date: string; time: string | null }, lang: Language): string {
  if (!q.time) return q.date;
  const at = new Date(q.time);
  if (Number.isNaN(at.getTime())) return q.date;
  const local = localParts(at, MARKET_TIME_ZONE[q.market]);
  const clock = `${String(Math.floor(local.minutes / 60)).padStart(2, "0")}:${String(local.minutes % 60).padStart(2, "0")}`;
  return `${local.date} ${clock} ${ZONE_NAMES[q.market][lang]}`;
}

async function marketAnswer(arg: string, recorder: ToolRecorder): Promise<string> {
  const lang = recorder.language;
  const region = (["cn", "hk", "us"].includes(arg.toLowerCase()) ? arg.toLowerCase() : "cn") as "cn" | "hk" | "us";
  const m = await recorder.run("get_market_indices", { region }, () => marketData(region, lang));
  const header =
    lang === "zh" ? "| 指数 | 点位 | 涨跌 |\n|---|---:|---:|" : "| Index | Level | Change |\n|---|---:|---:|";
  const rows = m.indices.map((i) => `| ${i.name}（${i.code}） | ${fmt(i.price)} | ${pct(i.change_pct)} |`);
  const parts = [header, ...rows].join("\n");
  const breadth = m.breadth
    ? lang === "zh"
      ? `\n\n上涨 ${m.breadth.advancers} 家，下跌 ${m.breadth.decliners} 家，平盘 ${m.breadth.flat} 家（${m.breadth.universe}）`
      : `\n\nAdvancers ${m.breadth.advancers}, decliners ${m.breadth.decliners}, flat ${m.breadth.flat} (${m.breadth.universe})`
    : "";
  return parts + breadth + sampleNote(m.is_sample_data, lang);
}

async function historyAnswer(code: string, recorder: ToolRecorder): Promise<string> {
  const lang = recorder.language;
  const h = await recorder.run("get_latest_report", { code, limit: 5 }, () => latestReportsData(code, 5, lang));
  if (h.reports.length === 0) {
    return lang === "zh"
      ? `${h.code} 还没有保存的报告。发送 \`/analyze ${h.code}\` 生成一份。`
      : `No stored report for ${h.code} yet. Send \`/analyze ${h.code}\` to make one.`;
  }
  const header =
    lang === "zh"
      ? "| 时间 | 操作 | 评分 | 价格 | 涨跌 |\n|---|---|---:|---:|---:|"
      : "| Time | Action | Score | Price | Change |\n|---|---|---:|---:|---:|";
  // Actions by their code in the answer's language: a stored report's own label is in its report language.
  const actions = dictionaryOf(lang).signalsUi.actions;
  const rows = h.reports.map(
    (r) =>
      `| [${r.created_at.slice(0, 10)}](/history/${r.record_id}) | ${codeLabel(actions, r.action, "–")} | ${r.score ?? "–"} | ${fmt(r.price)} | ${pct(r.change_pct)} |`,
  );
  const latest = h.reports[0]!;
  const summary = latest.summary ? `\n\n${lang === "zh" ? "最新结论" : "Latest conclusion"}：${latest.summary}` : "";
  return `**${h.name ?? h.code}（${h.code}）**\n\n${[header, ...rows].join("\n")}${summary}`;
}

async function signalsAnswer(code: string | null, recorder: ToolRecorder): Promise<string> {
  const lang = recorder.language;
  const s = await recorder.run("get_decision_signals", code ? { code } : {}, () => signalsData(code, lang));
  if (s.signals.length === 0) return lang === "zh" ? "没有决策信号。" : "No decision signals.";
  const header =
    lang === "zh"
      ? "| 股票 | 操作 | 状态 | 入场区间 | 止损 | 目标 |\n|---|---|---|---:|---:|---:|"
      : "| Stock | Action | Status | Entry | Stop | Target |\n|---|---|---|---:|---:|---:|";
  const words = dictionaryOf(lang).signalsUi;
  const rows = s.signals.map(
    (x) =>
      `| ${x.name ?? x.code}（${x.code}） | ${codeLabel(words.actions, x.action)} | ${codeLabel(words.statuses, x.status)} | ${x.entry_low !== null ? `${fmt(x.entry_low)} – ${fmt(x.entry_high)}` : "–"} | ${fmt(x.stop_loss)} | ${fmt(x.target_price)} |`,
  );
  return [header, ...rows].join("\n");
}

async function backtestAnswer(code: string, recorder: ToolRecorder): Promise<string> {
  const lang = recorder.language;
  const b = await recorder.run("get_stock_backtest_summary", { code }, () => backtestData(code, lang));
  if (!b.evaluated || !("win_rate_pct" in b)) {
    return lang === "zh"
      ? `${b.code} 还没有评估过的报告（报告需早于评估窗口；在“回测”页运行报告回测）。`
      : `No evaluated reports for ${b.code} yet (reports must be older than the window; run the report backtest on the Backtest page).`;
  }
  const lines =
    lang === "zh"
      ? [
          `**${b.name ?? b.code}（${b.code}）报告回测**（${b.eval_window_days} 日窗口，完成 ${b.completed_count} / ${b.total_evaluations}）`,
          `- 胜率 ${pct(b.win_rate_pct).replace("+", "")}（胜 ${b.win_count}，负 ${b.loss_count}）`,
          `- 方向准确率 ${pct(b.direction_accuracy_pct).replace("+", "")}`,
          `- 平均涨跌 ${pct(b.avg_stock_return_pct)}，模拟收益 ${pct(b.avg_simulated_return_pct)}`,
          `- 止损触发率 ${pct(b.stop_loss_trigger_rate).replace("+", "")}，止盈触发率 ${pct(b.take_profit_trigger_rate).replace("+", "")}`,
        ]
      : [
          `**Report backtest of ${b.name ?? b.code} (${b.code})** (${b.eval_window_days}-day window, ${b.completed_count} of ${b.total_evaluations} complete)`,
          `- Win rate ${pct(b.win_rate_pct).replace("+", "")} (${b.win_count} wins, ${b.loss_count} losses)`,
          `- Direction accuracy ${pct(b.direction_accuracy_pct).replace("+", "")}`,
          `- Mean move ${pct(b.avg_stock_return_pct)}, simulated return ${pct(b.avg_simulated_return_pct)}`,
          `- Stop hit rate ${pct(b.stop_loss_trigger_rate).replace("+", "")}, target hit rate ${pct(b.take_profit_trigger_rate).replace("+", "")}`,
        ];
  return lines.join("\n");
}

async function watchAnswer(args: string[], recorder: ToolRecorder): Promise<string> {
  const lang = recorder.language;
  const [verb = "", ...rest] = args;
  const code = rest.join(" ").trim();
  const action = verb.toLowerCase();
  let list: string[];
  let head = "";
  if (action === "" || action === "list") {
    list = (await recorder.run("get_watchlist", {}, async () => getWatchlist())).stock_codes;
  } else if ((action === "add" || action === "remove") && code !== "") {
    const change = action === "add" ? addToWatchlist : removeFromWatchlist;
    list = (
      await recorder.run(`${action === "add" ? "add_to" : "remove_from"}_watchlist`, { code }, () => change(code))
    ).stock_codes;
    head =
      action === "add"
        ? t({ zh: `已加入 ${code}。`, en: `Added ${code}.` }, lang)
        : t({ zh: `已移出 ${code}。`, en: `Removed ${code}.` }, lang);
  } else {
    return usage("/watch", lang);
  }
  const body =
    list.length === 0
      ? t({ zh: "自选股为空。", en: "The watchlist is empty." }, lang)
      : t({ zh: `自选股（${list.length}）：`, en: `Watchlist (${list.length}):` }, lang) + " " + list.join(", ");
  return head ? `${head}\n\n${body}` : body;
}

async function analyzeAnswer(code: string, recorder: ToolRecorder, signal?: AbortSignal): Promise<string> {
  const lang = recorder.language;
  const out = await recorder.run("analyze_stock", { code }, async () => {
    const request = ZAnalyzeRequest.parse({
      stock_code: code,
      report_type: "simple",
      notify: false,
      report_language: lang,
    });
    try {
      const result = await analyzeRequest(request, `agent-${Date.now().toString(36)}`, signal);
      if (result.status !== 200) throw new Error("unexpected async result");
      const report = result.body.report;
      return {
        record_id: report.meta.id,
        code: report.meta.stock_code,
        name: report.meta.stock_name,
        price: report.meta.current_price,
        change_pct: report.meta.change_pct,
        action: report.summary.action,
        action_label: report.summary.action_label,
        score: report.summary.sentiment_score,
        summary: report.summary.analysis_summary,
        advice: report.summary.operation_advice,
        strategy: report.strategy,
        model_used: report.meta.model_used,
      };
    } catch (error) {
      if (error instanceof ApiError) throw new Error(error.message);
      throw error;
    }
  });
  const lines = [
    lang === "zh"
      ? `**${out.name ?? out.code}（${out.code}）** ${out.action_label ?? "–"}，评分 ${out.score ?? "–"}，现价 ${fmt(out.price)}（${pct(out.change_pct)}）`
      : `**${out.name ?? out.code} (${out.code})** ${out.action_label ?? "–"}, score ${out.score ?? "–"}, price ${fmt(out.price)} (${pct(out.change_pct)})`,
  ];
  if (out.summary) lines.push(out.summary);
  const levels = [
    [lang === "zh" ? "理想买点" : "Ideal buy", out.strategy.ideal_buy],
    [lang === "zh" ? "次优买点" : "Second buy", out.strategy.secondary_buy],
    [lang === "zh" ? "止损" : "Stop loss", out.strategy.stop_loss],
    [lang === "zh" ? "止盈" : "Take profit", out.strategy.take_profit],
  ].filter(([, v]) => v);
  if (levels.length > 0) lines.push(levels.map(([k, v]) => `- ${k}：${v}`).join("\n"));
  if (out.record_id !== null)
    lines.push(
      lang === "zh" ? `[查看完整报告](/history/${out.record_id})` : `[Open the full report](/history/${out.record_id})`,
    );
  return lines.join("\n\n");
}
