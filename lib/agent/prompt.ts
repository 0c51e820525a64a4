import { skillPrompt, type LoadedSkill } from "./skills";
import type { TAgentContext } from "./schemas";
import type { Language } from "./tool-data";

// The chat's instructions. The rule that matters most is the first: figures only from tools. The answer check
// (number-check.ts) enforces it afterwards; saying it up front makes a rewrite rare.

export interface PromptInput {
  language: Language;
  skills: readonly LoadedSkill[];
  context: TAgentContext | null;
  today: Date;
}

const RULES: Record<Language, string> = {
  zh: [
    "你是 DSA 的股票分析助手，用中文回答交易者的问题。",
    "规则：",
    "1. 回答中的每个价格、涨跌幅、点位、指标值都必须来自本轮工具返回的数据，写法可四舍五入，但不得估算、推测或凭记忆给出数字。工具没有返回的数字就写“数据中没有”。",
    "2. 谈到某只股票时，先调用工具：现价用 get_realtime_quote，技术面与价格计划用 analyze_trend，历史结论用 get_latest_report，新闻用 search_stock_news，持仓用 get_portfolio，模拟账户用 list_paper_accounts。",
    "3. 数据标注为样例数据（is_sample_data 为 true）时，明确说明数字是样例数据。",
    "4. 回答用 Markdown，先给结论，再给依据与计划（买点、止损、目标须取自 analyze_trend 的 plan 或报告），最后一行提示风险。不构成投资建议。",
    "5. 不要编造新闻、财务数据或公司事件。",
    "6. 报告带有 evidence_statement 时，给出结论的同时原样转述它；不得声称规则引擎具有它没有显示的能力。data_quality 为 insufficient 时说明数据不足以支撑操作判断。",
    "7. 给出价格时同时写出工具返回的来源和日期（例如“1485.30 · csv · 2026-02-13 收盘”）；只有当日交易时段的行情才称“实时”。",
  ].join("\n"),
  en: [
    "You are DSA's stock-analysis assistant; answer the trader's question in English.",
    "Rules:",
    "1. Every price, percentage, level and indicator value in the answer must come from a tool result of this turn. You may round, but never estimate, guess or quote a figure from memory. When no tool returned a figure, say the data does not have it.",
    "2. For a stock, call tools first: get_realtime_quote for the price, analyze_trend for the technical picture and the price plan, get_latest_report for past conclusions, search_stock_news for news, get_portfolio for holdings, list_paper_accounts for paper accounts.",
    "3. When the data is marked as sample data (is_sample_data true), say the figures are sample data.",
    "4. Answer in Markdown: the conclusion first, then the evidence and the plan (entry, stop and target taken from analyze_trend's plan or a report), and a one-line risk note at the end. Not investment advice.",
    "5. Never invent news, financials or company events.",
    "6. When a report carries an evidence_statement, state it with the conclusion as it is; never claim the rule engine has skill it does not show. When data_quality is insufficient, say the data cannot carry a call.",
    '7. Give every price with the source and date the tool returned (e.g. "1485.30 · csv · 2026-02-13 close"); call a price live only when it is a quote from today\'s session.',
  ].join("\n"),
};

function contextSection(context: TAgentContext | null, language: Language): string {
  if (!context?.stock_code) return "";
  const name = context.stock_name ? `${context.stock_name} (${context.stock_code})` : context.stock_code;
  const lines = [language === "zh" ? `对话关于：${name}。` : `The conversation is about ${name}.`];
  if (context.record_id)
    lines.push(
      language === "zh"
        ? `来自 DSA 报告 #${context.record_id}（可用 get_latest_report 读取）。`
        : `Opened from DSA report #${context.record_id} (get_latest_report reads it).`,
    );
  const summary = context.previous_analysis_summary;
  if (summary !== undefined && summary !== null) {
    const text = typeof summary === "string" ? summary : JSON.stringify(summary);
    lines.push((language === "zh" ? "上次分析摘要：" : "Previous analysis summary: ") + text.slice(0, 2000));
  }
  if (typeof context.previous_price === "number")
    lines.push(
      (language === "zh" ? "上次分析时价格：" : "Price at the previous analysis: ") + String(context.previous_price),
    );
  return lines.join("\n");
}

export function buildSystemPrompt(input: PromptInput): string {
  const parts = [
    RULES[input.language],
    (input.language === "zh" ? "今天：" : "Today: ") + input.today.toISOString().slice(0, 10),
  ];
  const context = contextSection(input.context, input.language);
  if (context) parts.push(context);
  if (input.skills.length > 0) parts.push(skillPrompt([...input.skills], input.language));
  return parts.join("\n\n");
}

/** The one rewrite: the figures that failed the check, and every tool result of the turn restated. */
export function regenerationPrompt(
  language: Language,
  unverified: readonly string[],
  outputs: readonly { tool: string; output: unknown }[],
): string {
  const data = outputs.map((o) => `${o.tool}: ${JSON.stringify(o.output)}`).join("\n");
  return language === "zh"
    ? `你的回答写了工具数据中没有的数字：${unverified.join("、")}。请只用下面工具返回的数据重写整份回答；数据中没有的数字不要写，写“数据中没有”。\n\n工具数据：\n${data || "（本轮没有调用工具）"}`
    : `Your answer states figures no tool returned: ${unverified.join(", ")}. Rewrite the whole answer using only the tool data below; leave out any figure it does not hold and say the data does not have it.\n\nTool data:\n${data || "(no tool was called this turn)"}`;
}
