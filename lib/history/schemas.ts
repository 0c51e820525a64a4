import { z } from "zod";
import { DB_ID_MAX, DB_ID_MIN } from "@/lib/db/id-range";
import { ZDataQuality, ZEvidence, ZEvidenceScope } from "@/lib/evidence/schemas";

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
    engine_version: z
      .string()
      .nullable()
      .optional()
      .describe("The rule set that decided (null on records stored before it was recorded)"),
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
    skills_used: z
      .array(z.string())
      .optional()
      .describe(
        "Ids of the strategies whose instructions the model followed (the request's skills); [] for a rule-based report; absent on records stored before strategies",
      ),
    evidence: ZEvidence.optional().describe(
      "What the engine's own record says about this call (docs/api.md §13); absent on records stored before it",
    ),
    data_quality: ZDataQuality.optional().describe(
      "How far the data behind the call can carry it (docs/api.md §13); absent on records stored before it",
    ),
  })
  .meta({ id: "AnalysisReportDetails" });

export const ZStructuredReport = z
  .object({
    thesis: z.string().describe("The report's summary"),
    evidence: z.array(ZEvidenceScope).describe("details.evidence.scopes: the engine's record on this call"),
    evidence_statement: z.string().nullable().describe("details.evidence.statement"),
    invalidation_conditions: z.array(z.string()).describe("What would prove the call wrong (from its plan)"),
    next_actions: z.array(z.string()),
    data_quality: ZDataQuality.nullable(),
  })
  .meta({ id: "StructuredReport" });
export type TStructuredReport = z.infer<typeof ZStructuredReport>;

export const ZAnalysisReport = z
  .object({
    meta: ZReportMeta,
    summary: ZReportSummary,
    strategy: ZReportStrategy,
    details: ZReportDetails,
    structured_report: ZStructuredReport.optional().describe(
      "The report as thesis, evidence, invalidation conditions, next actions and data quality (CONTRACT §14.3), from its own fields",
    ),
  })
  .meta({ id: "AnalysisReport" });

export type TAnalysisReport = z.infer<typeof ZAnalysisReport>;
export type TReportSummary = z.infer<typeof ZReportSummary>;
export type TReportStrategy = z.infer<typeof ZReportStrategy>;
export type TReportDetails = z.infer<typeof ZReportDetails>;

/** The detail sections DSA has no data for yet (fundamentals, boards, rankings, structure): null in every stock report. */
export const NOT_GATHERED_DETAILS = {
  financial_report: null,
  dividend_metrics: null,
  belong_boards: null,
  sector_rankings: null,
  concept_rankings: null,
  market_structure: null,
} as const satisfies Partial<TReportDetails>;

// ---- Spec 2.6 / 4.3: the history endpoints' wire records ----

export const HISTORY_PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;
export const STOCK_BAR_LIMIT = { min: 1, max: 500, default: 200 } as const;
export const NEWS_LIMIT = { min: 1, max: 100, default: 20 } as const;
/** Spec 8: a NewsIntelItem snippet holds at most this many characters. */
export const NEWS_SNIPPET_MAX = 50;

const ZAssetType = z.enum(["stock", "index"]);
const ZAction = ZReportSummary.shape.action;

// A calendar day; "" counts as absent so a form can send an empty field. 2024-02-30 is refused.
const ZDay = z
  .string()
  .trim()
  .regex(/^(\d{4}-\d{2}-\d{2})?$/, { message: "Expected a date YYYY-MM-DD", abort: true })
  .refine((value) => value === "" || isCalendarDay(value), "Not a calendar date")
  .optional();

export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const dateRange = {
  start_date: ZDay.describe(
    "First day included (YYYY-MM-DD, service time zone SERVICE_TIMEZONE, default Asia/Shanghai)",
  ),
  end_date: ZDay.describe("Last day included (YYYY-MM-DD, service time zone SERVICE_TIMEZONE, default Asia/Shanghai)"),
};

function checkRange(value: { start_date?: string; end_date?: string }, ctx: z.RefinementCtx): void {
  if (value.start_date && value.end_date && value.start_date > value.end_date) {
    ctx.addIssue({
      code: "custom",
      path: ["end_date"],
      message: "end_date is before start_date",
      input: value.end_date,
    });
  }
}

export const ZHistoryListQuery = z
  .object({
    stock_code: z
      .string()
      .max(64)
      .optional()
      .describe("Code in any form (600519, 600519.SH, sh600519 are one stock; indices by canonical identity)"),
    report_type: z
      .string()
      .max(32)
      .optional()
      .describe("For example detailed or market_review; absent means all types"),
    ...dateRange,
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce
      .number()
      .int()
      .min(HISTORY_PAGE_SIZE.min)
      .max(HISTORY_PAGE_SIZE.max)
      .default(HISTORY_PAGE_SIZE.default),
  })
  .superRefine(checkRange);

export const ZHistoryStocksQuery = z
  .object({
    ...dateRange,
    limit: z.coerce.number().int().min(STOCK_BAR_LIMIT.min).max(STOCK_BAR_LIMIT.max).default(STOCK_BAR_LIMIT.default),
  })
  .superRefine(checkRange);

export const ZHistoryNewsQuery = z.object({
  limit: z.coerce.number().int().min(NEWS_LIMIT.min).max(NEWS_LIMIT.max).default(NEWS_LIMIT.default),
});

export const ZRecordIdParams = z.object({
  record_id: z
    .string()
    .min(1)
    .max(128)
    .describe("The integer record id or the query_id; an integer form is tried as an id first"),
});

export const ZStockCodeParams = z.object({
  stock_code: z.string().max(64).describe("Code in any variant form; every record of that stock is deleted"),
});

export const ZHistoryItem = z
  .object({
    id: z.number().int(),
    query_id: z.string(),
    stock_code: z.string().describe("Display code (indices show their display code)"),
    stock_name: text,
    report_type: z.string(),
    region: text,
    trend_prediction: text,
    analysis_summary: text,
    sentiment_score: z.number().int().nullable(),
    operation_advice: text,
    action: ZAction,
    action_label: text.describe("The action in the record's report language"),
    current_price: num,
    change_pct: num,
    volume_ratio: num,
    turnover_rate: num,
    model_used: text,
    created_at: z.string(),
    market_phase_summary: json.nullable(),
    asset_type: ZAssetType.nullable(),
  })
  .meta({ id: "HistoryItem" });

export const ZHistoryListResponse = z
  .object({
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    items: z.array(ZHistoryItem),
  })
  .meta({ id: "HistoryListResponse" });

export const ZStockBarItem = z
  .object({
    id: z.number().int().describe("Id of the stock's latest record"),
    stock_code: z.string(),
    stock_name: text,
    report_type: z.string(),
    sentiment_score: z.number().int().nullable(),
    operation_advice: text,
    action: ZAction,
    action_label: text,
    analysis_count: z.number().int().describe("History records of this stock (within the date range)"),
    last_analysis_time: z.string(),
    model_used: text,
    market_phase_summary: json.nullable(),
    asset_type: ZAssetType.nullable(),
  })
  .meta({ id: "StockBarItem" });

export const ZStockBarResponse = z
  .object({
    total: z.number().int().describe("Distinct stocks matching the filters (items holds at most limit of them)"),
    items: z.array(ZStockBarItem),
  })
  .meta({ id: "StockBarResponse" });

export const ZNewsIntelItem = z
  .object({
    title: z.string(),
    snippet: z.string().max(NEWS_SNIPPET_MAX),
    url: z.string(),
  })
  .meta({ id: "NewsIntelItem" });

export const ZNewsIntelResponse = z
  .object({
    total: z.number().int().describe("News items stored with the record"),
    items: z.array(ZNewsIntelItem),
  })
  .meta({ id: "NewsIntelResponse" });

export const ZDeleteHistoryRequest = z
  .object({
    record_ids: z
      .array(z.number().int().min(DB_ID_MIN).max(DB_ID_MAX))
      .default([])
      .describe("Record ids; each distinct id is deleted once. Empty → 400 invalid_request"),
  })
  .meta({ id: "DeleteHistoryRequest" });

export const ZDeleteHistoryResponse = z
  .object({ deleted: z.number().int().describe("Number of removed records") })
  .meta({ id: "DeleteHistoryResponse" });

export const ZMarkdownReportResponse = z
  .object({ content: z.string().describe("The Markdown report in the record's language") })
  .meta({ id: "MarkdownReportResponse" });

export type THistoryListQuery = z.infer<typeof ZHistoryListQuery>;
export type THistoryStocksQuery = z.infer<typeof ZHistoryStocksQuery>;
export type THistoryItem = z.infer<typeof ZHistoryItem>;
export type THistoryListResponse = z.infer<typeof ZHistoryListResponse>;
export type TStockBarItem = z.infer<typeof ZStockBarItem>;
export type TStockBarResponse = z.infer<typeof ZStockBarResponse>;
export type TNewsIntelItem = z.infer<typeof ZNewsIntelItem>;
export type TNewsIntelResponse = z.infer<typeof ZNewsIntelResponse>;
export type TDeleteHistoryResponse = z.infer<typeof ZDeleteHistoryResponse>;
export type TMarkdownReportResponse = z.infer<typeof ZMarkdownReportResponse>;
