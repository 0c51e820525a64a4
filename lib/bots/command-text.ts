import { isRejection, resolveToken } from "@/lib/market/symbols";

// A chat message as people type it to a bot (zh or en words, slash commands, Telegram's /cmd@BotName, a bare code)
// turned into the agent chat's message: one of its slash commands, or a free question.

export interface ChatMessage {
  /** "/quote 600519", or the question itself. */
  message: string;
  /** The slash command, or null for a free question. */
  command: string | null;
  language: "zh" | "en" | null;
}

const WORDS: Record<string, string> = {
  analyze: "/analyze",
  analyse: "/analyze",
  分析: "/analyze",
  诊断: "/analyze",
  quote: "/quote",
  price: "/quote",
  行情: "/quote",
  报价: "/quote",
  股价: "/quote",
  report: "/history",
  history: "/history",
  报告: "/history",
  最新报告: "/history",
  signals: "/signals",
  signal: "/signals",
  信号: "/signals",
  market: "/market",
  review: "/market",
  大盘: "/market",
  复盘: "/market",
  backtest: "/backtest",
  回测: "/backtest",
  watch: "/watch",
  watchlist: "/watch",
  自选: "/watch",
  自选股: "/watch",
  加自选: "/watch add",
  删自选: "/watch remove",
  help: "/help",
  start: "/help",
  帮助: "/help",
  "?": "/help",
  "？": "/help",
};
const SUBCOMMANDS: Record<string, string> = { 加: "add", 加入: "add", 删: "remove", 删除: "remove", 移出: "remove" };
const CJK = /[\u3400-\u9fff]/;
// Mentions the platforms leave in the text: Feishu's @_user_1 placeholders, a plain @name at the start.
const MENTION = /(^|\s)@\S+/g;

export function toChatMessage(raw: string, languageHint: "zh" | "en" | null = null): ChatMessage {
  const text = raw.replace(MENTION, " ").replace(/\s+/g, " ").trim();
  const language = CJK.test(text) ? "zh" : languageHint;
  const [first = "", ...rest] = text.split(" ");
  // Telegram in groups: /quote@DsaBot 600519.
  const word = first.replace(/@\S*$/, "").toLowerCase();
  const bare = word.replace(/^\//, "");
  const command = WORDS[word] ?? WORDS[bare] ?? (word.startsWith("/") ? word : null);
  if (command !== null) {
    const args =
      command === "/watch" && rest[0] && SUBCOMMANDS[rest[0]] ? [SUBCOMMANDS[rest[0]]!, ...rest.slice(1)] : rest;
    const message = [command, ...args].join(" ").trim();
    const english = /^[a-z]/.test(bare);
    return { message, command: command.split(" ")[0]!, language: language ?? (english ? "en" : null) };
  }
  // A lone code or a stock's name is a request to analyse it (what people send a stock bot most).
  if (rest.length === 0 && isStockLike(text)) return { message: `/analyze ${text}`, command: "/analyze", language };
  return { message: text, command: null, language };
}

function isStockLike(token: string): boolean {
  // Lower-case words ("hi", "ok") are words, not US tickers.
  if (!/\d/.test(token) && !/^[A-Z]{1,5}(\.[A-Z]{1,2})?$/.test(token) && !CJK.test(token)) return false;
  return !isRejection(resolveToken(token));
}
