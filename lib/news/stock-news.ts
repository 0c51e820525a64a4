import { configuredNewsChain, searchNewsWith, type NewsChain, type NewsQueryOptions } from "./search";
import type { NewsSearchResult } from "./types";

// News for one analysis target. The query's language follows where the stock's news is written (A-shares
// in Chinese, US stocks in English, Hong Kong by the report language), and the providers' locale hints
// follow the query, so a zh report on AAPL still searches English news.

export interface NewsTarget {
  code: string;
  name?: string | null;
  market: "cn" | "hk" | "us";
  kind?: "stock" | "index";
}

export interface StockNewsOptions extends Omit<NewsQueryOptions, "language"> {
  /** Report language: "zh" (default) or "en". */
  language?: "zh" | "en";
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

function clean(value: string | null | undefined): string {
  return (value ?? "").replace(/\s+/g, " ").trim();
}

function hkTicker(code: string): string {
  const digits = code.replace(/\D/g, "").replace(/^0+/, "");
  return digits === "" ? code : `${digits.padStart(4, "0")}.HK`;
}

/** The query text and the locale it is written in. */
export function stockNewsQuery(
  target: NewsTarget,
  language: "zh" | "en" = "zh",
): { query: string; language: "zh" | "en" } {
  const code = clean(target.code);
  const name = clean(target.name);
  const index = target.kind === "index";
  const chinese = (subject: string) => ({
    query: `${subject} ${index ? "最新行情 消息" : "最新消息"}`,
    language: "zh" as const,
  });
  const english = (subject: string) => ({
    query: `${subject} ${index ? "index market news" : "stock news"}`,
    language: "en" as const,
  });

  if (target.market === "cn") return chinese(name ? `${name} ${code}` : `${code} ${index ? "指数" : "股票"}`);
  if (target.market === "hk") {
    // An English query needs an English name; a Chinese-only name stays with a Chinese query.
    if (language === "en" && name !== "" && !CJK.test(name)) return english(`${name} ${hkTicker(code)}`);
    return chinese(name ? `${name} ${code} 港股` : `${code} 港股`);
  }
  // US: English news; a Chinese name (苹果) would only narrow the search, so the ticker stands alone then.
  const subject = name !== "" && !CJK.test(name) ? `${name} ${code.toUpperCase()}` : code.toUpperCase();
  return english(subject);
}

/**
 * Latest news for a stock or index. Never throws for provider trouble: with no key configured, or no
 * results, `items` is [] and `disclosure` is "no_news_evidence" (the spec's empty-news disclosure).
 */
export function searchStockNews(
  target: NewsTarget,
  options: StockNewsOptions = {},
  chain: NewsChain = configuredNewsChain(),
): Promise<NewsSearchResult> {
  const { query, language } = stockNewsQuery(target, options.language ?? "zh");
  return searchNewsWith(query, { ...options, language }, chain);
}
