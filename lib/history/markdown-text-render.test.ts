import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MarkdownText } from "@/components/history/markdown-text";
import { buildMarkdownReport } from "./markdown";
import { storedReport } from "@/tests/kits/stored-reports";

// The report renderer (components/history/markdown-text.tsx, react-markdown + GFM), rendered to static HTML as a
// server component would. The unit project runs .ts files only, hence createElement and no JSX.

function render(source: string): string {
  return compact(renderToStaticMarkup(createElement(MarkdownText, { source })));
}

/** The visible text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function count(text: string, pattern: RegExp): number {
  return (text.match(new RegExp(pattern.source, `g${pattern.flags.replace("g", "")}`)) ?? []).length;
}

/** Static markup without the newline text nodes react-markdown keeps between block elements. */
function compact(html: string): string {
  return html.replace(/>\n+</g, "><");
}

describe("MarkdownText", () => {
  it("wraps the output in the markdown-rendered container with the caller's class", () => {
    const html = renderToStaticMarkup(createElement(MarkdownText, { source: "text", className: "extra" }));
    expect(html).toMatch(/^<div class="extra" data-testid="markdown-rendered">/);
  });

  it("renders headings one level down (the page owns h1) with the report heading styles", () => {
    const html = render("# 贵州茅台 (600519) 分析报告\n\n## 核心结论\n\n### 市场温度\n\n#### Notes");
    expect(html).toContain('<h2 class="text-lg font-semibold">贵州茅台 (600519) 分析报告</h2>');
    expect(html).toContain('<h3 class="mt-4 border-b border-line pb-1 text-base font-semibold">核心结论</h3>');
    expect(html).toContain('<h4 class="mt-3 text-sm font-semibold">市场温度</h4>');
    expect(html).toContain('<h5 class="mt-3 text-sm font-semibold">Notes</h5>');
    expect(html).not.toContain("<h1");
  });

  it("renders bold, emphasis and inline code, keeping Chinese text as written", () => {
    const html = render(
      "- 沪指震荡收平，**成交额**小幅回落\n- 半导体板块领涨\n\n*投资有风险，入市需谨慎。* 代码 `600519`",
    );
    expect(html).toContain(
      '<ul class="mt-2 list-disc space-y-0.5 pl-5 text-sm leading-6"><li>沪指震荡收平，<strong>成交额</strong>小幅回落</li><li>半导体板块领涨</li></ul>',
    );
    expect(html).toContain("<em>投资有风险，入市需谨慎。</em>");
    expect(html).toMatch(
      /<code style="font-family:[^"]+" class="rounded bg-subtle px-1 text-\[0\.9em\]">600519<\/code>/,
    );
    expect(textOf(html)).toBe("沪指震荡收平， 成交额 小幅回落 半导体板块领涨 投资有风险，入市需谨慎。 代码 600519");
  });

  it("closes bold after full-width punctuation, as LLM-written Chinese does", () => {
    const html = render("**风险提示：**股价波动较大，**止损位（1420）**需严格执行。");
    expect(html).toContain("<strong>风险提示：</strong>股价波动较大，<strong>止损位（1420）</strong>需严格执行。");
    expect(html).not.toContain("**");
  });

  it("renders a GFM table as a <table> inside a horizontal-scroll wrapper, cells styled, alignment kept", () => {
    const html = render(
      ["| 指数 | 涨跌幅 |", "| --- | ---: |", "| 上证指数 | +0.12% |", "| 深证成指 | -0.35% |"].join("\n"),
    );
    expect(html).toMatch(/<div class="mt-2 overflow-x-auto"><table class="min-w-full border-collapse text-sm"><thead>/);
    expect(html).toContain(
      '<th scope="col" class="border border-line bg-subtle px-2 py-1 text-left text-xs font-medium whitespace-nowrap text-muted">指数</th>',
    );
    expect(html).toContain('<th scope="col" style="text-align:right"');
    expect(html).toContain('<td class="border border-line px-2 py-1 tabular-nums">上证指数</td>');
    expect(html).toContain(
      '<td style="text-align:right" class="border border-line px-2 py-1 tabular-nums">-0.35%</td>',
    );
    expect(count(html, /<tr>/)).toBe(3);
    expect(textOf(html)).not.toMatch(/\||---/);
  });

  it("opens http(s) links in a new tab with noopener noreferrer; mailto stays in the tab", () => {
    const html = render(
      "[贵州茅台发布年度报告](https://news.example.com/moutai) · [feed](http://example.com/a?b=1&c=2) · [mail](mailto:ops@example.com)",
    );
    expect(html).toContain(
      '<a href="https://news.example.com/moutai" target="_blank" rel="noopener noreferrer" class="text-accent underline underline-offset-2">贵州茅台发布年度报告</a>',
    );
    expect(html).toContain('<a href="http://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer"');
    expect(html).toContain(
      '<a href="mailto:ops@example.com" class="text-accent underline underline-offset-2">mail</a>',
    );
  });

  it("shows any other link as its text: javascript:, data:, relative, footnote anchors", () => {
    const html = render(
      "[点我](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [rel](/history/1) [vb](VBScript:msgbox) note[^1]\n\n[^1]: 脚注",
    );
    expect(html).not.toMatch(/href="(?!mailto:|https?:)/i);
    expect(html).not.toMatch(/javascript|vbscript|data:/i);
    expect(count(html, /<a /)).toBe(0);
    expect(textOf(html)).toContain("点我 data rel vb note");
  });

  it("never renders HTML from the source: <script> stays visible text, no element, no attributes", () => {
    const html = render(
      "<script>alert(1)</script>\n\n两市成交额回落 <script>x</script> <img src=x onerror=alert(1)>\n\n- [两市成交额回落 <script>x</script>](https://news.example.com/market)",
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;"); // shown as text
    expect(html).toContain('<p class="mt-2 text-sm leading-6">&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html).toContain(
      'rel="noopener noreferrer" class="text-accent underline underline-offset-2">两市成交额回落 &lt;script&gt;x&lt;/script&gt;</a>',
    );
  });

  it("shows a Markdown image as its alt text, loading nothing", () => {
    const html = render("![K线图](https://tracker.example.com/pixel.png)");
    expect(html).not.toMatch(/<img|tracker/);
    expect(textOf(html)).toBe("K线图");
  });

  it("keeps ~ ranges as text (only ~~ strikes through)", () => {
    const html = render("区间 3000~3100 点，支撑 2900~2950；~~作废~~");
    expect(html).toContain("区间 3000~3100 点，支撑 2900~2950；<del>作废</del>");
  });

  it("styles quotes, rules and code blocks like the report panel expects", () => {
    const html = render("> 【样本数据，非真实行情，仅供演示】\n> 第二行\n\n---\n\n```\na < b && c\n```");
    expect(html).toMatch(
      /<blockquote class="mt-2 border-l-2 border-line pl-3 text-xs leading-5 text-muted"><p class="\[p\+&amp;\]:mt-1">【样本数据，非真实行情，仅供演示】\n第二行<\/p><\/blockquote>/,
    );
    expect(html).toContain('<hr class="my-3 border-line"/>');
    expect(html).toMatch(
      /<pre style="font-family:[^"]+" class="mt-2 overflow-x-auto rounded bg-subtle p-2 text-xs leading-5">a &lt; b &amp;&amp; c<\/pre>/,
    );
  });

  it("renders a stored report: every ## section a heading, every table a table, no Markdown markup left", () => {
    for (const language of ["zh", "en"] as const) {
      const md = buildMarkdownReport({
        report: storedReport(language),
        news: [
          {
            title: "茅台发布一季报 <script>x</script>",
            snippet: "营收同比增长",
            url: "https://news.example.com/a",
            source: "财联社",
            publishedAt: "2026-05-05",
          },
        ],
        dataSource: "eastmoney",
        region: "cn",
        volumeRatio: 1.23,
        turnoverRate: 0.45,
      });
      const html = render(md);
      const sections = [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
      const h3 = [...html.matchAll(/<h3 [^>]*>(.*?)<\/h3>/g)].map((m) => textOf(m[1]!));
      expect(h3).toEqual(sections);
      expect(count(html, /<div class="mt-2 overflow-x-auto"><table /)).toBe(count(md, /^\| *---/m));
      expect(textOf(html)).not.toMatch(/(^|\s)#{1,6}\s|\|\s*---|\*\*/);
      expect(html).not.toMatch(/<script/i);
      expect(html).toContain('href="https://news.example.com/a" target="_blank" rel="noopener noreferrer"');
    }
  });
});
