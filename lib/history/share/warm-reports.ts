import { ANALYSIS_WINDOW_BARS, buildRuleReport, type RuleReportTarget } from "@/lib/analysis/engine";
import { createSampleProvider } from "@/lib/market/providers/sample";
import { buildMarkdownReport } from "../markdown";
import { ruleOnlyReport } from "../rule-only-report";
import { buildShareCard, type ShareCard } from "./card";

// Besides WARM_CARD (every block kind), the warm-up draws the cards of two real reports, one per
// language, built by the same engines, Markdown and card code as any report. After a start, V8 compiles the main
// thread's share path (Markdown, card) and satori's layout for a real report's content only when it first runs
// them; a hand-written card leaves the first real request to pay for that (measured: 243 ms for the first share
// image after a start, 142 ms with this). The reports are of the offline sample data, never stored or shown.

const TARGET: RuleReportTarget = {
  kind: "stock",
  market: "hk",
  code: "00700",
  displayCode: "00700",
  name: "腾讯控股",
  nameEn: "Tencent Holdings",
};

export async function warmReportCards(): Promise<ShareCard[]> {
  const provider = createSampleProvider({ latencyMs: () => 0 });
  const signal = new AbortController().signal;
  const [bars, quote] = await Promise.all([
    provider.dailyBars(TARGET, ANALYSIS_WINDOW_BARS, { signal }),
    provider.quote(TARGET, { signal }),
  ]);
  return (["zh", "en"] as const).map((language) => {
    const rule = buildRuleReport({ target: TARGET, bars, quote, language, dataSource: "sample" });
    const report = ruleOnlyReport(
      rule,
      {
        id: 0,
        query_id: "warm-up",
        stock_code: TARGET.code,
        stock_name: language === "zh" ? TARGET.name! : TARGET.nameEn!,
        report_type: "detailed",
        report_language: language,
        created_at: quote?.time ?? new Date(0).toISOString(),
        current_price: rule.indicators.price,
        change_pct: rule.indicators.change_pct,
        model_used: null,
        asset_type: "stock",
      },
      bars.length,
      "sample",
    );
    const markdown = buildMarkdownReport({
      report,
      news: [],
      dataSource: "sample",
      region: TARGET.market,
      volumeRatio: quote?.volume_ratio ?? null,
      turnoverRate: quote?.turnover_rate ?? null,
    });
    return buildShareCard({ report, markdown });
  });
}
