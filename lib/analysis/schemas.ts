import { z } from "zod";
import { ZAnalysisReport } from "@/lib/history/schemas";

export const REPORT_TYPES = ["simple", "detailed", "full", "brief"] as const;
export const ANALYSIS_PHASES = ["auto", "premarket", "intraday", "postmarket"] as const;
export const SELECTION_SOURCES = ["manual", "autocomplete", "import", "image"] as const;

// Clients written for the reference send camelCase aliases for two fields (docs/api.md §7).
function withAliases(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input;
  const body = { ...(input as Record<string, unknown>) };
  if (body.skills === undefined && body.strategies !== undefined) body.skills = body.strategies;
  if (body.report_language === undefined && body.reportLanguage !== undefined)
    body.report_language = body.reportLanguage;
  delete body.strategies;
  delete body.reportLanguage;
  return body;
}

// Spec 2.2. Token counting, resolution and the 400s of rules 1–6 happen after parsing (lib/analysis/request.ts):
// only malformed types and enum values are 422 here.
export const ZAnalyzeRequest = z
  .preprocess(
    withAliases,
    z.object({
      stock_code: z.string().max(64).nullish().describe("One code or name"),
      stock_codes: z
        .array(z.string().max(64))
        .max(500)
        .nullish()
        .describe("Merged after stock_code; at most 50 non-blank tokens in all"),
      report_type: z
        .enum(REPORT_TYPES)
        .default("detailed")
        .describe("brief/simple: conclusion and levels; detailed/full: the whole report"),
      force_refresh: z.boolean().default(false).describe("Ignore cached market data"),
      async_mode: z.boolean().default(false).describe("true: queue one task per code and answer 202"),
      analysis_phase: z.enum(ANALYSIS_PHASES).default("auto"),
      notify: z.boolean().default(true).describe("Send a notification after the analysis"),
      skills: z.array(z.string().min(1).max(64)).max(20).nullish().describe("Alias: strategies"),
      report_language: z
        .string()
        .max(16)
        .nullish()
        .describe("zh (default) or en; aliases such as zh-CN, english. Alias: reportLanguage"),
      stock_name: z.string().max(64).nullish().describe("Kept only for a single accepted target"),
      original_query: z.string().max(2000).nullish().describe("Kept for a single target, or a batch from import/image"),
      selection_source: z.enum(SELECTION_SOURCES).nullish(),
    }),
  )
  .meta({ id: "AnalyzeRequest" });

export type TAnalyzeRequest = z.infer<typeof ZAnalyzeRequest>;

// Spec 2.3. diagnostic_summary is the run's RunDiagnosticSummaryResponse (docs/api.md §5).
export const ZAnalysisResultResponse = z
  .object({
    query_id: z.string(),
    trace_id: z.string().nullish(),
    stock_code: z.string(),
    stock_name: z.string().nullish(),
    report: ZAnalysisReport,
    diagnostic_summary: z.record(z.string(), z.unknown()).nullish(),
    created_at: z.string(),
  })
  .meta({ id: "AnalysisResultResponse" });

export type TAnalysisResultResponse = z.infer<typeof ZAnalysisResultResponse>;
