import { reviewMarkets } from "@/lib/market-review/rules";
import { describe, expect, it } from "vitest";
import { buildMarkdownReport, type MarkdownNewsItem } from "../markdown";
import type { TAnalysisReport } from "../schemas";
import { storedMarketReview, storedReport } from "@/tests/kits/stored-reports";
import { buildShareCard, CARD_LIMITS, type CardBlock, type ShareCard } from "./card";
import { parseMarkdownDocument } from "./markdown-blocks";

function markdownOf(report: TAnalysisReport, news: MarkdownNewsItem[] = []): string {
  return buildMarkdownReport({
    report,
    news,
    dataSource: "eastmoney",
    region: "cn",
    volumeRatio: 1.23,
    turnoverRate: 0.45,
  });
}

function cardOf(report: TAnalysisReport, news: MarkdownNewsItem[] = []): ShareCard {
  return buildShareCard({ report, markdown: markdownOf(report, news) });
}

const tileValues = (card: ShareCard) => Object.fromEntries(card.hero.map((t) => [t.label, t.value]));
const blocksOf = (card: ShareCard, title: string): CardBlock[] =>
  card.sections.find((s) => s.title === title)?.blocks ?? [];

describe("share card model", () => {
  it("zh stock card: header and hero from the structured report, sections from the Markdown in order", () => {
    const report = storedReport("zh");
    const card = cardOf(report);
    expect(card).toMatchObject({
      lang: "zh",
      variant: "stock",
      title: "贵州茅台",
      subtitle: "600519",
      badge: "详细",
      light: null,
    });
    expect(card.meta).toBe("生成时间：2026-05-06 16:00 (Asia/Shanghai) · 报告类型：详细 · 市场阶段：盘后");
    expect(tileValues(card)).toEqual({
      操作建议: report.summary.action_label,
      评分: String(report.summary.sentiment_score),
      现价: "1660.50",
      趋势预测: report.summary.trend_prediction,
    });
    const sectionsInMarkdown = parseMarkdownDocument(markdownOf(report)).sections.map((s) => s.title);
    expect(card.sections.map((s) => s.title)).toEqual(sectionsInMarkdown);
    expect(card.footer[0]).toMatch(/^免责声明：/);
    expect(card.brand).toBe("DSA 智能股票分析 · 记录 #42");
  });

  it("the header's notices carry the engine's record and the data quality, as the Markdown states them", () => {
    const report = storedReport("en");
    report.details.evidence = {
      engine_version: "rules-v4",
      action: "watch",
      horizon_days: 10,
      scopes: [],
      statement:
        'On this stock\'s own bars the engine made 12 "Watch" calls (3 independent): too few independent calls.',
    };
    report.details.data_quality = {
      level: "insufficient",
      reasons: [
        {
          code: "stale_bars",
          message: "The last bar is 2012-12-31, 51 sessions before the last closed session 2013-03-15",
        },
      ],
      bars: 250,
      last_bar_date: "2012-12-31",
      source: "csv",
    };
    (report.details.context_snapshot as Record<string, unknown>).as_of = {
      date: "2012-12-31",
      basis: "quote",
      live: false,
      time: null,
      provisional_bar: false,
    };
    (report.details.context_snapshot as Record<string, unknown>).quote = { source: "csv" };
    const card = cardOf(report);
    // The header says the data are stale and where and when the price is from; a sample mark only on sample data.
    expect(card.marks).toEqual([
      { text: "Data end 2012-12-31 (stale)", tone: "warn" },
      { text: "Price csv · 2012-12-31 close", tone: "info" },
    ]);
    expect(card.notices).toContain(`The engine's record: ${report.details.evidence.statement}`);
    expect(card.notices).toContain(
      "Data quality: insufficient · csv · 250 daily bars to 2012-12-31 · The last bar is 2012-12-31, 51 sessions before the last closed session 2013-03-15",
    );
  });

  it("a sample report's header carries the sample mark whatever the order of the sources", () => {
    const report = storedReport("zh");
    report.details.data_quality = {
      level: "degraded",
      reasons: [{ code: "sample_data", message: "示例数据：不是真实行情" }],
      bars: 250,
      last_bar_date: "2026-05-06",
      source: "csv",
    };
    expect(cardOf(report).marks[0]).toEqual({ text: "示例数据 · 非真实行情", tone: "warn" });
  });

  it("the conclusion section leaves action, score and trend to the hero tiles and keeps the advice", () => {
    const conclusion = blocksOf(cardOf(storedReport("zh")), "核心结论");
    const labels = conclusion.flatMap((b) => (b.kind === "list" ? b.items.map((i) => i.label) : []));
    expect(labels).toContain("操作说明");
    expect(labels).not.toContain("操作建议");
    expect(labels).not.toContain("评分");
    expect(labels).not.toContain("趋势预测");
  });

  it("one-row tables become tiles, two-column tables label/value pairs (levels, indicators)", () => {
    const report = storedReport("zh");
    const card = cardOf(report);
    const levels = blocksOf(card, "策略点位")[0];
    expect(levels).toEqual({
      kind: "tiles",
      tiles: [
        { label: "理想买点", value: report.strategy.ideal_buy ?? "—" },
        { label: "次优买点", value: report.strategy.secondary_buy ?? "—" },
        { label: "止损位", value: report.strategy.stop_loss ?? "—" },
        { label: "目标位", value: report.strategy.take_profit ?? "—" },
      ],
    });
    const indicators = blocksOf(card, "技术指标")[0];
    expect(indicators?.kind).toBe("pairs");
    if (indicators?.kind === "pairs")
      expect(indicators.pairs.map((p) => p.label).slice(0, 4)).toEqual(["MA5", "MA10", "MA20", "MA60"]);
  });

  it("en stock card: English labels throughout", () => {
    const card = cardOf(storedReport("en"));
    expect(card).toMatchObject({ lang: "en", title: "Kweichow Moutai", badge: "Detailed" });
    expect(card.hero.map((t) => t.label)).toEqual(["Action", "Score", "Price", "Trend outlook"]);
    expect(card.sections.map((s) => s.title)).toEqual(
      expect.arrayContaining(["Conclusion", "Strategy levels", "Indicators", "Risks"]),
    );
    expect(JSON.stringify(card)).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it("the news list is cut to CARD_LIMITS.news with a count of the rest; a change colours the price", () => {
    const news = Array.from({ length: 8 }, (_, i) => ({
      title: `新闻 ${i + 1}`,
      snippet: "",
      url: `https://news.example.com/${i}`,
    }));
    const card = cardOf(storedReport("zh", { change_pct: -1.25 }), news);
    const list = blocksOf(card, "相关新闻")[0];
    expect(list).toMatchObject({ kind: "list", more: `另有 ${8 - CARD_LIMITS.news} 条` });
    if (list?.kind === "list")
      expect(list.items.map((i) => i.text)).toEqual(["新闻 1", "新闻 2", "新闻 3", "新闻 4", "新闻 5"]);
    expect(card.hero.find((t) => t.label === "现价")).toMatchObject({ tone: "down", note: "-1.25%", noteTone: "down" });
  });

  it("market review card: its own layout from the stored payload (temperature light, indices, breadth, plan, risks)", async () => {
    const { report, payload } = await storedMarketReview("zh");
    const card = cardOf(report);
    expect(card).toMatchObject({
      variant: "market",
      title: payload.title,
      light: payload.market_light.light,
      badge: "大盘复盘",
    });
    expect(card.notices).toEqual([payload.sample_notice]);
    expect(card.hero[0]).toMatchObject({ label: "市场温度", value: String(payload.market_light.score) });
    expect(card.hero[1]).toMatchObject({ label: "展望", value: payload.outlook.label });
    const market = reviewMarkets(payload)[0]!;
    const marketBlocks = card.sections.find((s) => s.title.startsWith(market.label))!.blocks;
    const indexTiles = marketBlocks.find((b) => b.kind === "tiles");
    expect(indexTiles?.kind === "tiles" && indexTiles.tiles.map((t) => t.label)).toEqual(
      market.indices.slice(0, CARD_LIMITS.indices).map((i) => i.name),
    );
    const breadth = marketBlocks.find((b) => b.kind === "breadth");
    expect(breadth).toMatchObject({
      advancers: market.breadth!.up_count,
      decliners: market.breadth!.down_count,
      flat: market.breadth!.flat_count,
    });
    expect(blocksOf(card, "策略")).toEqual([{ kind: "text", text: payload.outlook.text }]);
    const risks = blocksOf(card, "风险提示")[0];
    expect(risks?.kind === "list" && risks.items.length).toBe(Math.min(CARD_LIMITS.reviewRisks, payload.risks.length));
    expect(card.footer).toEqual([payload.disclaimer]);
    expect(card.sections.map((s) => s.title)).not.toContain("核心结论");
  });

  it("a market review stored without a payload still gets the review layout, from its Markdown", async () => {
    const { report } = await storedMarketReview("en");
    const context = { ...(report.details.context_snapshot as Record<string, unknown>) };
    delete context.market_review_payload;
    const legacy: TAnalysisReport = { ...report, details: { ...report.details, context_snapshot: context } };
    const card = cardOf(legacy);
    expect(card).toMatchObject({ variant: "market", light: null, hero: [], badge: "Market review" });
    expect(card.title).toMatch(/^Market review/);
    expect(card.sections.map((s) => s.title)).toContain("Review");
  });
});
