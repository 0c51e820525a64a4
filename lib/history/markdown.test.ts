import { describe, expect, it } from "vitest";
import { buildMarkdownReport, type MarkdownNewsItem, type MarkdownReportInput } from "./markdown";
import type { TAnalysisReport } from "./schemas";
import { storedReport } from "@/tests/kits/stored-reports";

const news: MarkdownNewsItem[] = [
  {
    title: "茅台发布一季报",
    snippet: "营收同比增长",
    url: "https://news.example.com/a",
    source: "财联社",
    publishedAt: "2026-05-05",
  },
];

function input(report: TAnalysisReport, items: MarkdownNewsItem[] = news): MarkdownReportInput {
  return { report, news: items, dataSource: "eastmoney", region: "cn", volumeRatio: 1.23, turnoverRate: 0.45 };
}

describe("buildMarkdownReport", () => {
  it("4.3 markdown: a zh record gives a complete Chinese report, every section in order", () => {
    const md = buildMarkdownReport(input(storedReport("zh")));
    const headings = [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(md.startsWith("# 贵州茅台 (600519) 分析报告\n")).toBe(true);
    expect(md).toContain("生成时间：2026-05-06 16:00 (Asia/Shanghai)");
    expect(headings).toEqual(
      expect.arrayContaining([
        "核心结论",
        "行情",
        "摘要",
        "策略点位",
        "技术指标",
        "相关新闻",
        "风险提示",
        "数据来源与模型",
      ]),
    );
    expect(headings.indexOf("核心结论")).toBeLessThan(headings.indexOf("策略点位"));
    expect(md).toMatch(/- \*\*操作建议\*\*：\S+/);
    expect(md).toMatch(/- \*\*评分\*\*：\d+ \/ 100/);
    expect(md).toContain("| 1660.50 | 0.00% | 1.23 | 0.45% |"); // 0 % change is kept, not a dash
    expect(md).toMatch(/\| MA5 \| \d+\.\d{2} \|/);
    expect(md).toMatch(/\| MA60 \| \d+\.\d{2} \|/);
    expect(md).toContain("- [茅台发布一季报](https://news.example.com/a) — 营收同比增长 (财联社 · 2026-05-05)");
    expect(md).toContain("规则引擎（未使用大模型）");
    expect(md).toContain("#42 · " + "q".repeat(32));
    expect(md.trimEnd().endsWith("投资需谨慎。*")).toBe(true);
    expect(md).not.toMatch(/undefined|NaN|\[object Object\]/);
  });

  it("4.3 markdown: an en record gives the English report with English labels only", () => {
    const english = [{ title: "Moutai posts Q1 results", snippet: "Revenue up", url: "https://news.example.com/b" }];
    const md = buildMarkdownReport(input(storedReport("en", { model_used: "openai/gpt-4o-mini" }), english));
    expect(md.startsWith("# Kweichow Moutai (600519) analysis report\n")).toBe(true);
    for (const heading of [
      "## Conclusion",
      "## Price",
      "## Strategy levels",
      "## Indicators",
      "## News",
      "## Risks",
      "## Data source and model",
    ]) {
      expect(md).toContain(heading);
    }
    expect(md).toMatch(/- \*\*Action\*\*: [A-Z]/);
    expect(md).toContain("- **Model**: openai/gpt-4o-mini");
    expect(md).toContain("Disclaimer:");
    expect(md).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it("spec 2.6 rule 5: no news gives the stored empty-news disclosure instead of a list", () => {
    const report = storedReport("zh");
    report.details.empty_news_disclosure = "未检索到相关新闻证据：本报告仅基于行情与技术指标。";
    const md = buildMarkdownReport(input(report, []));
    expect(md).toContain("## 相关新闻\n\n> 未检索到相关新闻证据");
  });

  it("is deterministic: the same record gives byte-identical Markdown", () => {
    expect(buildMarkdownReport(input(storedReport("zh")))).toBe(buildMarkdownReport(input(storedReport("zh"))));
  });

  it("news text cannot break the Markdown: brackets, pipes and non-http links are neutralised", () => {
    const md = buildMarkdownReport(
      input(storedReport("en"), [
        { title: "Up [50%] | record", snippet: "line one\nline two", url: "https://x.example/a (b)" },
        { title: "click me", snippet: "", url: "javascript:alert(1)" },
      ]),
    );
    expect(md).toContain("- [Up \\[50%\\] | record](https://x.example/a%20%28b%29) — line one line two");
    expect(md).toContain("- click me\n");
    expect(md).not.toContain("javascript:");
  });

  it("a partial record (no dashboard, no snapshot) still yields a readable report", () => {
    const report = storedReport("en");
    report.details = {
      ...report.details,
      raw_result: null,
      context_snapshot: null,
      analysis_context_pack_overview: null,
    };
    report.strategy = { ideal_buy: null, secondary_buy: null, stop_loss: null, take_profit: null };
    const md = buildMarkdownReport({ report, news: [] });
    expect(md).toContain("No indicator data was stored with this record.");
    expect(md).toContain("| — | — | — | — |");
    expect(md).toContain("No specific risks were flagged.");
  });

  it("market reviews have their own layout (no action, levels or indicators)", () => {
    const report = storedReport("zh", { report_type: "market_review", stock_code: "MARKET", stock_name: "大盘复盘" });
    report.summary = { ...report.summary, action: null, action_label: null, analysis_summary: "沪指震荡收涨。" };
    report.details = {
      ...report.details,
      raw_result: { markdown: "### 指数\n上证指数收涨 0.5%" },
      market_structure: { up_count: 3200, down_count: 1800 },
    };
    const md = buildMarkdownReport({ report, news: [], region: "cn" });
    expect(md.startsWith("# 大盘复盘（A股）\n")).toBe(true);
    expect(md).toContain("## 复盘内容\n\n### 指数\n上证指数收涨 0.5%");
    expect(md).toContain("| up_count | 3200 |");
    expect(md).not.toContain("## 策略点位");
    expect(md).not.toContain("## 技术指标");
  });
});
