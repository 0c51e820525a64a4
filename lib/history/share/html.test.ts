import { describe, expect, it } from "vitest";
import { buildMarkdownReport, type MarkdownNewsItem } from "../markdown";
import type { TAnalysisReport } from "../schemas";
import { storedMarketReview, storedReport } from "@/tests/kits/stored-reports";
import { buildShareCard } from "./card";
import { escapeHtml, renderShareHtml, SHARE_HTML_CSP, styleAttribute } from "./html";

function htmlOf(report: TAnalysisReport, news: MarkdownNewsItem[] = []): string {
  const markdown = buildMarkdownReport({
    report,
    news,
    dataSource: "eastmoney",
    region: "cn",
    volumeRatio: 1.23,
    turnoverRate: 0.45,
  });
  return renderShareHtml(buildShareCard({ report, markdown }));
}

const HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>';

describe("share image HTML (spec 4.3 rule 5)", () => {
  it("is deterministic: two builds of the same record give byte-identical pages", async () => {
    const news = [{ title: "茅台发布一季报", snippet: "营收同比增长", url: "https://news.example.com/a" }];
    expect(htmlOf(storedReport("zh"), news)).toBe(htmlOf(storedReport("zh"), news));
    expect(htmlOf(storedReport("en"))).toBe(htmlOf(storedReport("en")));
    expect(htmlOf((await storedMarketReview("zh")).report)).toBe(htmlOf((await storedMarketReview("zh")).report));
  });

  it("a complete UTF-8 page, 1080 px wide, in the record's language, showing the report's figures", () => {
    const report = storedReport("zh");
    const html = htmlOf(report);
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="zh-CN">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain("<title>贵州茅台</title>");
    expect(html).toContain(">1660.50<");
    expect(html).toContain(`>${report.summary.action_label}<`);
    expect(html).toContain(">核心结论<");
    expect(html).toContain("width:1080px");
    expect(htmlOf(storedReport("en"))).toContain('<html lang="en">');
  });

  it("every record text is escaped: a <script> news title or stock name stays text", () => {
    const report = storedReport("zh", { stock_name: `茅台${HOSTILE}` });
    const html = htmlOf(report, [{ title: `快讯${HOSTILE}`, snippet: "a & b", url: "https://news.example.com/x" }]);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("快讯&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("<title>茅台&lt;script&gt;");
  });

  it("nothing the CSP forbids: no script, link, external URL or event handler; only inline styles", () => {
    const html = htmlOf(storedReport("zh"), [{ title: "t", snippet: "", url: "https://news.example.com/a" }]);
    expect(html).not.toMatch(/<(script|link|iframe|img|object|embed)\b/i);
    expect(html).not.toMatch(/\s(href|src|on\w+)=/i);
    expect(html).not.toContain("https://"); // news links are shown as titles only
    expect(SHARE_HTML_CSP).toBe("default-src 'none'; img-src data:; style-src 'unsafe-inline'");
  });

  it("escapeHtml covers the five significant characters; styles serialise with px units in a fixed order", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(styleAttribute({ display: "flex", marginTop: 12, lineHeight: 1.5, fontWeight: 700, padding: 0 })).toBe(
      "display:flex;margin-top:12px;line-height:1.5;font-weight:700;padding:0",
    );
  });
});
