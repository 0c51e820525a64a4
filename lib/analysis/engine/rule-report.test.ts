import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { sampleCatalogueKeys, type TMarketSymbol } from "@/lib/market";
import { parseBarsCsv } from "@/lib/market/providers/csv-bars";
import { createSampleProvider } from "@/lib/market/providers/sample";
import { classifyDecisionAction } from "./action";
import { computeIndicators } from "./indicators";
import { decideStructure } from "./structure-decision";
import { buildRuleReport, type RuleReportTarget } from "./rule-report";
import { ZRuleReport } from "./schemas";
import { barsFromCloses } from "@/tests/kits/test-bars";

afterEach(() => setClock(null));

const provider = createSampleProvider({ latencyMs: () => 0 });
const ctx = () => ({ signal: new AbortController().signal });
const moutai: RuleReportTarget = {
  kind: "stock",
  market: "cn",
  code: "600519",
  displayCode: "600519",
  name: "贵州茅台",
  nameEn: "Kweichow Moutai",
};

async function sampleInput(symbol: TMarketSymbol) {
  const bars = await provider.dailyBars(symbol, 120, ctx());
  const quote = await provider.quote(symbol, ctx());
  return { bars, quote };
}

describe("rule-based report", () => {
  it("zh report from sample data is complete, valid and visibly labelled as sample", async () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    const report = buildRuleReport({ target: moutai, ...(await sampleInput(moutai)), dataSource: "sample" });
    expect(ZRuleReport.safeParse(report).success).toBe(true);
    expect(report.report_language).toBe("zh");
    expect(report.report_type).toBe("detailed");
    expect(report.is_sample_data).toBe(true);
    expect(report.summary.analysis_summary.startsWith("【样本数据")).toBe(true);
    expect(report.summary.analysis_summary).toContain("贵州茅台（600519）");
    expect(report.dashboard.risk_warnings![0]).toContain("样本数据");
    expect(report.dashboard.core_conclusion.confidence).toBe("low");
    expect(report.summary.sentiment_score).toEqual(expect.any(Number));
    expect(report.market_phase_summary.phase).toBe("postmarket"); // 20:00 in Shanghai
    expect(report.summary.action_label).toMatch(/[\u4e00-\u9fff]/);
  });

  it("en report uses English labels and the English name", async () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    const report = buildRuleReport({
      target: moutai,
      ...(await sampleInput(moutai)),
      dataSource: "sample",
      language: "en-US",
    });
    expect(report.report_language).toBe("en");
    expect(report.summary.analysis_summary).toMatch(/^\[Sample data/);
    expect(report.summary.analysis_summary).toContain("Kweichow Moutai (600519)");
    expect(report.summary.analysis_summary).not.toMatch(/[\u4e00-\u9fff]/);
    expect(report.summary.operation_advice).not.toMatch(/[\u4e00-\u9fff]/);
    expect(report.summary.trend_prediction).not.toMatch(/[\u4e00-\u9fff]/);
    expect(report.strategy.ideal_buy ?? "").not.toMatch(/[\u4e00-\u9fff]/);
  });

  it("real provider data carries no sample label", () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    const report = buildRuleReport({
      target: moutai,
      bars: barsFromCloses(Array.from({ length: 80 }, (_, i) => 100 + i * 0.3)),
      dataSource: "eastmoney",
    });
    expect(report.is_sample_data).toBe(false);
    expect(report.summary.analysis_summary).not.toContain("样本");
  });

  it("report_type depth: brief/simple = conclusion + levels; detailed/full = everything", async () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    const input = { target: moutai, ...(await sampleInput(moutai)), dataSource: "sample" };
    for (const reportType of ["brief", "simple"] as const) {
      const r = buildRuleReport({ ...input, reportType });
      expect(r.dashboard.depth).toBe("brief");
      expect(r.dashboard.data_perspective).toBeNull();
      expect(r.dashboard.battle_plan.action_checklist).toBeNull();
      expect(r.dashboard.risk_warnings).toBeNull();
      expect(r.dashboard.core_conclusion.one_sentence.length).toBeGreaterThan(0);
      expect(r.dashboard.battle_plan.sniper_points).toBeDefined();
    }
    const brief = buildRuleReport({ ...input, reportType: "brief" });
    for (const reportType of ["detailed", "full"] as const) {
      const r = buildRuleReport({ ...input, reportType });
      expect(r.dashboard.depth).toBe("full");
      expect(r.dashboard.data_perspective?.price_position.ma5).toBe(r.indicators.ma.ma5);
      expect(r.dashboard.battle_plan.action_checklist!.length).toBeGreaterThan(5);
      expect(r.dashboard.phase_decision?.phase).toBe("postmarket");
      // Summary and strategy do not depend on depth.
      expect(r.summary).toEqual(brief.summary);
      expect(r.strategy).toEqual(brief.strategy);
    }
  });

  it("spec 2.6 rule 1: the stored action is what the classifier reads from the advice, and agrees with the score band", async () => {
    const keys = sampleCatalogueKeys().filter((k) => !k.startsWith("index:"));
    const seen = new Set<string>();
    for (const day of ["2026-02-11", "2026-05-20", "2026-08-12", "2026-11-20"]) {
      setClock(() => new Date(`${day}T12:00:00Z`));
      for (const key of keys) {
        const [market, code] = key.split(":") as ["cn" | "hk" | "us", string];
        const target: RuleReportTarget = { kind: "stock", market, code };
        for (const language of ["zh", "en"]) {
          const r = buildRuleReport({ target, ...(await sampleInput(target)), dataSource: "sample", language });
          const again = classifyDecisionAction({
            advice: r.summary.operation_advice,
            score: r.summary.sentiment_score,
            guardrailReasons: [],
          });
          expect([key, day, language, r.summary.operation_advice, r.summary.action]).toEqual([
            key,
            day,
            language,
            r.summary.operation_advice,
            again.action,
          ]);
          expect(again.overridden).toBe(false);
          seen.add(r.summary.action!);
        }
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it("every cell of the rules-v6 tables reads back as its own action in both languages (real bars)", () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    const folder = path.resolve(import.meta.dirname, "../../../tests/fixtures/real-bars");
    const seen = new Set<string>();
    for (const file of ["cn-600519-2024-2026.csv", "us-AAPL-2012-2014.csv", "hk-00941-2020-2025.csv"]) {
      const bars = parseBarsCsv(fs.readFileSync(path.join(folder, file), "utf8"), file);
      const market = file.slice(0, 2) as "cn" | "us" | "hk";
      const target: RuleReportTarget = { kind: "stock", market, code: file.split("-")[1]! };
      for (let i = 25; i < bars.length; i += 2) {
        const window = bars.slice(Math.max(0, i - 249), i + 1);
        const structure = decideStructure(computeIndicators({ bars: window, market }), market).reason;
        if (seen.has(structure)) continue;
        seen.add(structure);
        for (const language of ["zh", "en"] as const) {
          const r = buildRuleReport({ target, bars: window, dataSource: "csv", language, phase: "postmarket" });
          expect(
            classifyDecisionAction({
              advice: r.summary.operation_advice,
              score: r.summary.sentiment_score,
              guardrailReasons: [],
            }),
            `${structure} ${language}: ${r.summary.operation_advice}`,
          ).toMatchObject({ action: r.summary.action, overridden: false });
        }
      }
    }
    expect([...seen].sort()).toEqual(
      [
        "dip_in_downtrend",
        "dip_in_range",
        "downtrend_at_mean",
        "extended",
        "extended_rally_in_downtrend",
        "a_share_dip_in_uptrend",
        "a_share_uptrend_at_mean",
        "a_share_rally_in_uptrend",
        "a_share_dip_in_downtrend",
        "a_share_downtrend_at_mean",
        "a_share_rally_in_downtrend",
        "no_structure",
        "pullback_in_uptrend",
        "rally_in_downtrend",
        "rally_in_range",
        "range",
        "uptrend_intact",
      ].sort(),
    );
  });

  it("the plan's words agree: no size to buy on a stay-out call, and every stop names its price", () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    const folder = path.resolve(import.meta.dirname, "../../../tests/fixtures/real-bars");
    let checked = 0;
    for (const file of ["cn-600519-2024-2026.csv", "us-AAPL-2012-2014.csv", "hk-00941-2020-2025.csv"]) {
      const bars = parseBarsCsv(fs.readFileSync(path.join(folder, file), "utf8"), file);
      const market = file.slice(0, 2) as "cn" | "us" | "hk";
      const target: RuleReportTarget = { kind: "stock", market, code: file.split("-")[1]! };
      for (let i = 80; i < bars.length; i += 9) {
        for (const language of ["zh", "en"] as const) {
          const r = buildRuleReport({
            target,
            bars: bars.slice(Math.max(0, i - 249), i + 1),
            dataSource: "csv",
            language,
            phase: "postmarket",
          });
          const position = r.dashboard.battle_plan.position_strategy!;
          const where = `${file} ${bars[i]!.date} ${language} ${r.summary.action}`;
          if (!["buy", "add"].includes(r.summary.action!))
            expect(position.suggested_position, where).not.toMatch(/\d|成/);
          if (r.indicators.support.length > 0) {
            const words = [r.summary.operation_advice, ...Object.values(r.dashboard.core_conclusion.position_advice)];
            for (const text of words) expect(text, where).not.toMatch(/关键支撑|key support/);
          }
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it("spec 2.6 rule 2: a 0 change stays 0", () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    const bars = barsFromCloses(Array.from({ length: 70 }, () => 10));
    const report = buildRuleReport({ target: moutai, bars, dataSource: "eastmoney" });
    expect(report.indicators.change_pct).toBe(0);
    expect(report.dashboard.data_perspective?.price_position.change_pct).toBe(0);
    expect(report.summary.analysis_summary).toContain("0.00%");
  });

  it("reference §12: too little history → no score, watch with the reason, not a default 50", () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    const report = buildRuleReport({
      target: moutai,
      bars: barsFromCloses([10, 10.2, 10.1, 10.4, 10.3, 10.5]),
      dataSource: "eastmoney",
      language: "en",
    });
    expect(report.summary.sentiment_score).toBeNull();
    expect(report.summary.sentiment_label).toBeNull();
    expect(report.summary.action).toBe("watch");
    expect(report.summary.operation_advice).toMatch(/not enough data/);
    expect(report.guardrail_reasons.map((g) => g.code)).toEqual(["insufficient_data"]);
    expect(report.summary.trend_prediction).toBe("Not enough data to judge");
  });

  it("the chasing guardrail shows in the advice, the reasons and the summary", () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    // A steady climb with shallow dips, then a jump far above MA5.
    const closes = Array.from({ length: 79 }, (_, i) => 100 + i * 0.5 + (i % 3 === 0 ? -0.6 : 0));
    closes.push(closes.at(-1)! * 1.09);
    const report = buildRuleReport({
      target: moutai,
      bars: barsFromCloses(closes),
      dataSource: "eastmoney",
      language: "zh",
    });
    expect(report.indicators.bias.ma5!).toBeGreaterThan(5);
    expect(report.guardrail_reasons.map((g) => g.code)).toContain("chasing");
    expect(report.summary.operation_advice).toContain("过度延伸");
    expect(report.summary.analysis_summary).toContain("不追高");
    // rules-v5: a stretched price is trimmed, not bought; reduce sits in the 20–39 band, so score and action agree.
    expect(report.summary.action).toBe("reduce");
    expect(report.summary.sentiment_score!).toBeLessThan(40);
    expect(report.dashboard.risk_warnings!.join("")).toContain("追高");
  });

  it("explicit analysis_phase passes through into the report", async () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    const r = buildRuleReport({
      target: moutai,
      ...(await sampleInput(moutai)),
      dataSource: "sample",
      phase: "premarket",
    });
    expect(r.market_phase_summary).toMatchObject({ phase: "premarket", source: "explicit" });
    expect(r.dashboard.phase_decision?.immediate_action).toContain("开盘前");
  });
});

describe("one regime word", () => {
  it("the trend shown beside a call is the 1-3-month regime the call's advice speaks of, on every sample series", async () => {
    setClock(() => new Date("2026-11-20T12:00:00Z"));
    const words = { up: "上升趋势", down: "下跌趋势", flat: "区间震荡" } as const;
    let checked = 0;
    for (const key of sampleCatalogueKeys().filter((k) => !k.startsWith("index:"))) {
      const [market, code] = key.split(":") as ["cn" | "hk" | "us", string];
      const target: RuleReportTarget = { kind: "stock", market, code, displayCode: code };
      const report = buildRuleReport({ target, ...(await sampleInput(target)), dataSource: "sample" });
      const regime = report.indicators.regime;
      if (regime === null || regime === undefined) continue;
      checked += 1;
      expect(report.summary.trend_prediction).toBe(words[regime]);
      // The advice never names the other regimes, and the MA-alignment line never uses the regime's words.
      for (const [other, word] of Object.entries(words))
        if (other !== regime) expect(report.summary.operation_advice).not.toContain(word);
      const alignment = report.dashboard.data_perspective?.trend_status.ma_alignment ?? "";
      expect(alignment).not.toMatch(/震荡|趋势/);
    }
    expect(checked).toBeGreaterThan(3);
  });
});
