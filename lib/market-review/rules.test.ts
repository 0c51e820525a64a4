import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { marketOverview, parseEastmoneyBreadth, ZMarketOverview, type TMarketOverview } from "@/lib/market/overview";
import { fixtureText } from "@/tests/kits/market-replay";
import type { ChainOptions } from "@/lib/market/providers/chain";
import { createSampleProvider } from "@/lib/market/providers/sample";
import { clearQuoteCache } from "@/lib/market/quote-cache";
import {
  buildRulePayload,
  narrativeOf,
  regionsOf,
  renderFullReport,
  reviewMarkets,
  renderRuleBody,
  type RulePayloadInput,
} from "./rules";
import { ZMarketReviewPayload } from "./schemas";

const AT = new Date("2026-11-20T12:00:00Z"); // Friday, after the A-share close
const chain: ChainOptions = { providers: [createSampleProvider({ latencyMs: () => 0 })], timeoutMs: 2000, retries: 0 };

beforeEach(() => {
  clearQuoteCache();
  setClock(() => AT);
});

afterEach(() => {
  setClock(null);
  clearQuoteCache();
});

// Formatting written out here on purpose, independent of the module under test.
const signedFixed = (v: number) => `${v > 0 ? "+" : ""}${v.toFixed(2)}`;
const pctText = (v: number) => `${signedFixed(v)}%`;
const mean = (xs: number[]) => Math.round((xs.reduce((s, x) => s + x, 0) / xs.length) * 100) / 100;

/** The temperature rule as the review text states it, recomputed from the overview. */
function expectedTemperature(overviews: TMarketOverview[]): number {
  let points = 0;
  let max = 0;
  for (const o of overviews) {
    const changes = o.indices.flatMap((i) => (i.quote ? [i.quote.change_pct] : []));
    if (changes.length > 0) {
      points += Math.min(40, Math.max(0, 20 + 10 * mean(changes)));
      max += 40;
    }
    const b = o.breadth;
    if (b) {
      const total = b.advancers + b.decliners + b.flat;
      if (total > 0) {
        points += (40 * b.advancers) / total;
        max += 40;
      }
      // No limit move either way: the part is left out.
      if (b.limit_up !== null && b.limit_down !== null && b.limit_up + b.limit_down > 0) {
        points += (20 * b.limit_up) / (b.limit_up + b.limit_down);
        max += 20;
      }
    }
  }
  return Math.round((points / max) * 100);
}

function input(
  overviews: TMarketOverview[],
  language: "zh" | "en",
  extra: Partial<RulePayloadInput> = {},
): RulePayloadInput {
  return {
    region: overviews.length > 1 ? "both" : overviews[0]!.region,
    overviews,
    news: [],
    language,
    generatedAt: AT,
    ...extra,
  };
}

describe("rule-based market review on sample data", () => {
  it("zh: every index row, the breadth counts and the temperature equal the overview's numbers", async () => {
    const cn = await marketOverview("cn", { chain });
    const payload = buildRulePayload(input([cn], "zh"));
    expect(ZMarketReviewPayload.parse(payload)).toEqual(payload);
    const text = renderFullReport(payload, renderRuleBody(payload));

    expect(text.startsWith("# 大盘复盘（A股）2026-11-20\n")).toBe(true);
    for (const index of cn.indices) {
      const q = index.quote!;
      expect(text).toContain(
        `| ${index.name} | ${index.display_code} | ${q.price.toFixed(2)} | ${signedFixed(q.change)} | ${pctText(q.change_pct)} |`,
      );
    }
    const changes = cn.indices.map((i) => i.quote!.change_pct);
    const up = changes.filter((c) => c > 0).length;
    const down = changes.filter((c) => c < 0).length;
    expect(text).toContain(
      `主要指数 ${up} 涨 ${down} 跌 ${changes.length - up - down} 平，平均涨跌幅 ${pctText(mean(changes))}。`,
    );

    const b = cn.breadth!;
    const total = b.advancers + b.decliners + b.flat;
    expect(text).toContain(`上涨 ${b.advancers} 家，下跌 ${b.decliners} 家，平盘 ${b.flat} 家`);
    expect(text).toContain(`上涨家数占比 ${((b.advancers / total) * 100).toFixed(1)}%`);
    expect(text).toContain(`涨停 ${b.limit_up} 家，跌停 ${b.limit_down} 家。`);

    const score = expectedTemperature([cn]);
    expect(payload.market_light.score).toBe(score);
    expect(text).toContain(`市场温度 **${score} / 100（`);
    expect(text).toContain("规则：指数分 = 20 + 10 × 指数平均涨跌幅");
    expect(text).toContain("板块排行：暂无数据源提供。");
    for (const heading of [
      "### 市场概览",
      "### A股：指数表现",
      "### 市场温度",
      "### 消息面",
      "### 后市展望",
      "### 风险提示",
    ])
      expect(text).toContain(heading);
    expect(text).toContain("判定规则：温度 ≥ 60");
    expect(text.trimEnd().endsWith("投资需谨慎。*")).toBe(true);
    expect(text).not.toMatch(/undefined|NaN|null|\[object Object\]/);
  });

  it("sample labelling: payload flag, notice at the top of the text and a risk line; zh and en", async () => {
    const cn = await marketOverview("cn", { chain });
    const zh = buildRulePayload(input([cn], "zh"));
    expect([zh.is_sample_data, zh.data_source, zh.sample_notice]).toEqual([
      true,
      "sample",
      "【样本数据，非真实行情，仅供演示】",
    ]);
    expect(renderRuleBody(zh).startsWith("> 【样本数据，非真实行情，仅供演示】")).toBe(true);
    expect(zh.risks[0]).toMatch(/样本数据/);
    const en = buildRulePayload(input([cn], "en"));
    expect(renderRuleBody(en).startsWith("> [Sample data – not real market data")).toBe(true);
    expect(en.risks[0]).toMatch(/sample data/);
  });

  it("en: English labels and index names, the same numbers", async () => {
    const us = await marketOverview("us", { chain });
    const payload = buildRulePayload(input([us], "en"));
    const text = renderFullReport(payload, renderRuleBody(payload));
    expect(text.startsWith("# Market review (US) 2026-11-20\n")).toBe(true);
    for (const index of us.indices) {
      expect(text).toContain(
        `| ${index.name_en} | ${index.display_code} | ${index.quote!.price.toFixed(2)} | ${signedFixed(index.quote!.change)} | ${pctText(index.quote!.change_pct)} |`,
      );
    }
    const b = us.breadth!;
    expect(text).toContain(`${b.advancers} advancers, ${b.decliners} decliners, ${b.flat} unchanged`);
    expect(text).toContain("Limit-up/limit-down counts: not available.");
    expect(payload.market_light.score).toBe(expectedTemperature([us]));
    for (const heading of [
      "### Overview",
      "### US: indices",
      "### Market temperature",
      "### News",
      "### Outlook",
      "### Risks",
    ])
      expect(text).toContain(heading);
    expect(text).not.toMatch(/[\u4e00-\u9fff]/);
    expect(text).toContain("It is not investment advice");
  });

  it("both = cn + us: two market sections, one temperature over all parts, cross-market rule when the means differ in sign", async () => {
    expect(regionsOf("both")).toEqual(["cn", "us"]);
    const cn = await marketOverview("cn", { chain });
    const us = await marketOverview("us", { chain });
    const payload = buildRulePayload(input([cn, us], "zh"));
    const text = renderRuleBody(payload);
    expect(payload.region).toBe("both");
    expect(payload.regions).toEqual(["cn", "us"]);
    expect(payload.title).toBe("大盘复盘（A股 + 美股）2026-11-20");
    expect(text).toContain("### A股：指数表现");
    expect(text).toContain("### 美股：指数表现");
    expect(payload.market_light.score).toBe(expectedTemperature([cn, us]));
    expect(reviewMarkets(payload).map((m) => m.market_light.score)).toEqual([
      expectedTemperature([cn]),
      expectedTemperature([us]),
    ]);
    const cnMean = mean(cn.indices.map((i) => i.quote!.change_pct));
    const usMean = mean(us.indices.map((i) => i.quote!.change_pct));
    const crossRule = payload.outlook.rules.some((r) => r.includes("两地指数均值符号相反"));
    expect(crossRule).toBe(Math.sign(cnMean) !== Math.sign(usMean));
  });
});

// A hand-built overview: sectors and limit counts, which no recorded provider body offers yet.
function craftedOverview(overrides: Partial<TMarketOverview> = {}): TMarketOverview {
  const quote = (price: number, change_pct: number) => ({
    price,
    change: Math.round(price * change_pct) / 100,
    change_pct,
    volume: null,
    amount: null,
    volume_ratio: null,
    turnover_rate: null,
    high: null,
    low: null,
    open: null,
    prev_close: null,
    time: "2026-11-20T15:00:00+08:00",
    source: "eastmoney" as const,
  });
  return ZMarketOverview.parse({
    region: "cn",
    as_of: "2026-11-20T12:00:00.000Z",
    source: "eastmoney",
    indices: [
      {
        canonical_id: "000001.SH",
        display_code: "sh000001",
        name: "上证指数",
        name_en: "SSE Composite Index",
        quote: quote(3300, 1.2),
        source: "eastmoney",
        error: null,
      },
      {
        canonical_id: "399001.SZ",
        display_code: "sz399001",
        name: "深证成指",
        name_en: "SZSE Component Index",
        quote: quote(10000, 2.6),
        source: "eastmoney",
        error: null,
      },
      {
        canonical_id: "399006.SZ",
        display_code: "sz399006",
        name: "创业板指",
        name_en: "ChiNext Index",
        quote: null,
        source: null,
        error: "no market data",
      },
    ],
    breadth: {
      advancers: 1000,
      decliners: 3900,
      flat: 100,
      limit_up: 12,
      limit_down: 30,
      limit_note: null,
      universe: "SH, SZ, BJ A-shares",
      by_exchange: [],
      total_amount: null,
      source: "eastmoney",
    },
    breadth_note: null,
    sectors: {
      gainers: [
        { code: "BK1", name: "半导体", change_pct: 3.1 },
        { code: "BK2", name: "券商", change_pct: 4.5 },
        { code: "BK3", name: "银行", change_pct: 1.2 },
        { code: "BK4", name: "军工", change_pct: 2.2 },
      ],
      losers: [
        { code: "BK5", name: "煤炭", change_pct: -1.1 },
        { code: "BK6", name: "地产", change_pct: -3.4 },
      ],
      source: "eastmoney",
    },
    sectors_note: null,
    ...overrides,
  });
}

describe("rules on crafted data", () => {
  it("sector leaders/laggards (top 3, sorted), limit counts, divergence and risk rules", () => {
    const payload = buildRulePayload(input([craftedOverview()], "zh"));
    const text = renderRuleBody(payload);
    expect(text).toContain("**领涨板块**：券商 +4.50%、半导体 +3.10%、军工 +2.20%");
    expect(text).toContain("**领跌板块**：地产 -3.40%、煤炭 -1.10%");
    expect(text).toContain("涨停 12 家，跌停 30 家。");
    expect(text).toContain("| 创业板指 | sz399006 | 无行情 | — | — |");
    // Mean of the quoted indices only: (1.2 + 2.6) / 2.
    expect(reviewMarkets(payload)[0]!.index_stats).toEqual({ up: 2, down: 0, flat: 0, avg_change_pct: 1.9 });
    // 20 + 19 = 39 of 40; 40 × 1000/5000 = 8; 20 × 12/42 = 5.714…; (39 + 8 + 5.714…) / 100 → 53.
    expect(payload.market_light.score).toBe(53);
    expect(payload.outlook.stance).toBe("balanced");
    expect(payload.outlook.rules.some((r) => r.includes("指数与个股分化"))).toBe(true);
    expect(payload.risks).toEqual(
      expect.arrayContaining([
        "深证成指单日波动 +2.60%（≥ 2%），注意短线波动放大。",
        "A股跌停 30 家多于涨停 12 家，短线亏钱效应偏强。",
        "A股有 1 个指数未取得行情（创业板指）。",
      ]),
    );
    expect(payload.is_sample_data).toBe(false);
    expect(payload.sample_notice).toBeNull();
    expect(text.startsWith("> ")).toBe(false);
  });

  it("stance: ≥60 with broad advance → constructive; <40 → defensive; no data at all → unknown", () => {
    const hot = craftedOverview({
      breadth: {
        advancers: 4000,
        decliners: 900,
        flat: 100,
        limit_up: 80,
        limit_down: 2,
        limit_note: null,
        universe: "x",
        by_exchange: [],
        total_amount: null,
        source: "eastmoney",
      },
    });
    const warm = buildRulePayload(input([hot], "en"));
    expect(warm.market_light.score).toBeGreaterThanOrEqual(60);
    expect([warm.outlook.stance, warm.market_light.light]).toEqual(["offensive", "green"]);
    const cold = craftedOverview({
      indices: craftedOverview().indices.map((i) =>
        i.quote ? { ...i, quote: { ...i.quote, change_pct: -3, change: -99 } } : i,
      ),
      breadth: {
        advancers: 200,
        decliners: 4700,
        flat: 100,
        limit_up: 1,
        limit_down: 90,
        limit_note: null,
        universe: "x",
        by_exchange: [],
        total_amount: null,
        source: "eastmoney",
      },
    });
    const weak = buildRulePayload(input([cold], "en"));
    expect([weak.outlook.stance, weak.market_light.level, weak.market_light.light]).toEqual([
      "defensive",
      "cold",
      "red",
    ]);
    const empty = craftedOverview({ indices: [], breadth: null, sectors: null, source: null });
    const none = buildRulePayload(input([empty], "zh"));
    expect([none.market_light.score, none.outlook.stance]).toEqual([null, "unknown"]);
    expect(renderRuleBody(none)).toContain("市场温度：数据不足，无法计算。");
  });

  it("the temperature agrees with the day it shows (down, up and mixed days)", () => {
    const breadth = (advancers: number, decliners: number, flat: number, limitUp: number, limitDown: number) => ({
      advancers,
      decliners,
      flat,
      limit_up: limitUp,
      limit_down: limitDown,
      limit_note: null,
      universe: "x",
      by_exchange: [],
      total_amount: null,
      source: "eastmoney" as const,
    });
    const withChange = (pct: number) =>
      craftedOverview().indices.map((i) =>
        i.quote ? { ...i, quote: { ...i.quote, change_pct: pct, change: pct } } : i,
      );
    // Down day: indices −0.01 %, one more decliner than advancers, every limit move a limit up: the formula alone gives 60.
    const downDay = craftedOverview({ indices: withChange(-0.01), breadth: breadth(2495, 2496, 0, 40, 0) });
    expect(expectedTemperature([downDay])).toBe(60);
    const down = buildRulePayload(input([downDay], "zh"));
    expect(reviewMarkets(down)[0]!.index_stats.avg_change_pct).toBeLessThan(0);
    expect(down.market_light.score).toBe(59);
    expect(reviewMarkets(down)[0]!.market_light.score).toBe(59);
    expect(["offensive"]).not.toContain(down.outlook.stance);
    expect(down.market_light.level).toBe("neutral");
    expect(down.summary).not.toContain("偏暖");
    // Up day mirror: indices +0.01 %, advancers ahead of decliners among many flat stocks, every limit move a limit down.
    const upDay = craftedOverview({ indices: withChange(0.01), breadth: breadth(1000, 900, 3000, 0, 40) });
    expect(expectedTemperature([upDay])).toBe(28);
    const up = buildRulePayload(input([upDay], "en"));
    expect(up.market_light.score).toBe(40);
    expect(up.market_light.level).toBe("neutral");
    // Mixed day (indices down, advancers ahead): the formula stands as it is.
    const mixedDay = craftedOverview({ indices: withChange(-0.2), breadth: breadth(3000, 1900, 100, 40, 0) });
    expect(buildRulePayload(input([mixedDay], "zh")).market_light.score).toBe(expectedTemperature([mixedDay]));
    expect(renderRuleBody(down)).toContain("一致性");
    // A day without a single limit move has no limit part (no "50 %" of none); the score is scaled over the rest.
    const quiet = craftedOverview({ indices: withChange(0.3), breadth: breadth(3000, 2000, 0, 0, 0) });
    const calm = buildRulePayload(input([quiet], "en"));
    expect(reviewMarkets(calm)[0]!.market_light.components.map((c) => c.key)).not.toContain("limit");
    expect(calm.market_light.score).toBe(expectedTemperature([quiet]));
  });

  it("on recorded breadth (Eastmoney ulist: 1,186 up, 4,360 down): a falling tape never reads positive", () => {
    const recorded = parseEastmoneyBreadth(fixtureText("eastmoney/ulist-np-advancers-decliners.json"))!;
    const withChange = (pct: number) =>
      craftedOverview().indices.map((i) =>
        i.quote ? { ...i, quote: { ...i.quote, change_pct: pct, change: pct } } : i,
      );
    for (const pct of [-1, -0.1]) {
      const payload = buildRulePayload(input([craftedOverview({ indices: withChange(pct), breadth: recorded })], "zh"));
      expect(payload.market_light.score!, `indices ${pct}%`).toBeLessThan(60);
      expect(payload.outlook.stance).not.toBe("offensive");
      expect(payload.summary).not.toMatch(/偏暖|过热/);
    }
    // The same day mirrored (advancers and decliners swapped) with the indices up never reads negative.
    const mirrored = { ...recorded, advancers: recorded.decliners, decliners: recorded.advancers };
    const up = buildRulePayload(input([craftedOverview({ indices: withChange(0.1), breadth: mirrored })], "en"));
    expect(up.market_light.score!).toBeGreaterThanOrEqual(40);
  });

  it("on sample data: 20 days × 3 markets, never positive on a down day nor negative on an up day", async () => {
    let down = 0;
    let up = 0;
    for (let day = 0; day < 20; day += 1) {
      const at = new Date(AT.getTime() - day * 86_400_000);
      if (at.getUTCDay() === 0 || at.getUTCDay() === 6) continue;
      setClock(() => at);
      clearQuoteCache();
      for (const region of ["cn", "hk", "us"] as const) {
        const payload = buildRulePayload(input([await marketOverview(region, { chain })], "zh"));
        const m = reviewMarkets(payload)[0]!;
        const adv = m.breadth?.up_count ?? 0;
        const dec = m.breadth?.down_count ?? 0;
        if (m.index_stats.avg_change_pct! < 0 && dec > adv) {
          down += 1;
          expect(payload.market_light.score!, `${region} ${at.toISOString()}`).toBeLessThan(60);
        }
        if (m.index_stats.avg_change_pct! > 0 && adv > dec) {
          up += 1;
          expect(payload.market_light.score!, `${region} ${at.toISOString()}`).toBeGreaterThanOrEqual(40);
        }
      }
    }
    expect(down + up).toBeGreaterThan(0);
  }, 30_000);

  it("news items are listed with links; markdown in titles cannot break out of the link", () => {
    const payload = buildRulePayload(
      input([craftedOverview()], "zh", {
        news: [
          {
            region: "cn",
            item: {
              title: "沪指收涨 [快讯]",
              snippet: "",
              url: "https://news.example.com/a b",
              source: "财联社",
              published_at: "2026-11-20T08:00:00.000Z",
            },
          },
        ],
      }),
    );
    expect(renderRuleBody(payload)).toContain(
      "- [沪指收涨 \\[快讯\\]](https://news.example.com/a%20b) (财联社 · 2026-11-20)",
    );
    expect(payload.risks.some((r) => r.includes("未检索到大盘相关新闻"))).toBe(false);
  });
});

describe("the review's text beside its numbers", () => {
  it("keeps the narrative and the sectors, drops the index table, the temperature section and the scoring rules", async () => {
    const cn = await marketOverview("cn", { chain });
    const payload = buildRulePayload(input([cn], "zh"));
    const full = renderRuleBody(payload);
    const text = narrativeOf(payload);
    expect(full).toMatch(/^\|/m);
    expect(text).not.toMatch(/^\|/m);
    expect(text).not.toContain("### 市场温度");
    for (const rule of payload.outlook.rules) expect(text).not.toContain(rule);
    expect(text).toContain("### 市场概览");
    expect(text).toContain(payload.summary);
    expect(text).toContain(payload.outlook.text);
  });
});
