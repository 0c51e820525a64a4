import { z } from "zod";

const num = z.number().nullable();
const text = z.string().nullable();
const json = z.record(z.string(), z.unknown());

// Spec 2.6: AnalysisReport and its parts. Numbers are numbers (0 stays 0), missing values are null.
export const ZReportMeta = z
  .object({
    id: z.number().int().nullable(),
    query_id: z.string(),
    stock_code: z.string().describe("Display code: indices show their display code"),
    stock_name: text,
    report_type: z.string(),
    report_language: z.enum(["zh", "en"]),
    created_at: z.string(),
    current_price: num,
    change_pct: num.describe("Daily change in percent; never a 60-day change"),
    model_used: text,
    market_phase_summary: json.nullable(),
    asset_type: z.enum(["stock", "index"]).nullable(),
  })
  .meta({ id: "AnalysisReportMeta" });

export const ZReportSummary = z
  .object({
    analysis_summary: text,
    operation_advice: text,
    action: z.enum(["buy", "add", "hold", "reduce", "sell", "watch", "avoid", "alert"]).nullable(),
    action_label: text,
    trend_prediction: text,
    sentiment_score: z.number().int().min(0).max(100).nullable(),
    sentiment_label: text,
  })
  .meta({ id: "AnalysisReportSummary" });

export const ZReportStrategy = z
  .object({ ideal_buy: text, secondary_buy: text, stop_loss: text, take_profit: text })
  .meta({ id: "AnalysisReportStrategy" });

export const ZReportDetails = z
  .object({
    news_content: text,
    empty_news_disclosure: text.optional(),
    raw_result: json.nullable(),
    context_snapshot: json.nullable(),
    analysis_context_pack_overview: json.nullable(),
    financial_report: json.nullable(),
    dividend_metrics: json.nullable(),
    belong_boards: z.array(z.unknown()).nullable(),
    sector_rankings: json.nullable(),
    concept_rankings: json.nullable(),
    market_structure: json.nullable(),
  })
  .meta({ id: "AnalysisReportDetails" });

export const ZAnalysisReport = z
  .object({ meta: ZReportMeta, summary: ZReportSummary, strategy: ZReportStrategy, details: ZReportDetails })
  .meta({ id: "AnalysisReport" });

export type TAnalysisReport = z.infer<typeof ZAnalysisReport>;
export type TReportSummary = z.infer<typeof ZReportSummary>;
export type TReportStrategy = z.infer<typeof ZReportStrategy>;
export type TReportDetails = z.infer<typeof ZReportDetails>;
