import { z } from "zod";
import type { AnalysisPlan } from "@/lib/analysis/request";
import { ZAnalyzeRequest } from "@/lib/analysis/schemas";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { dedupKey } from "@/lib/market/symbols";
import type { TTaskAccepted } from "@/lib/tasks/schemas";
import { submitAnalysisTasks } from "@/lib/tasks/submit";
import { getAccountOrThrow, resolveTradeSymbol } from "./store";
import { DB_ID_MAX } from "@/lib/db/id-range";

// POST /portfolio/positions/{symbol}/analysis (docs/api.md §12.1.14): queue an analysis of a held stock through the one
// task path of POST /analysis/analyze (async, one target), so duplicates, the worker and the task stream are shared.

export const ZPositionAnalysisParams = z.object({
  symbol: z.string().trim().min(1).max(32).describe("The held stock's code, URL-encoded"),
});

export const ZPositionAnalysisRequest = z
  .object({
    account_id: z
      .number()
      .int()
      .positive()
      .max(DB_ID_MAX)
      .nullish()
      .describe("Needed when the stock is held in more than one active account"),
    analysis_phase: z.enum(["auto", "premarket", "intraday", "postmarket"]).default("auto"),
    force: z
      .boolean()
      .default(false)
      .describe("Refresh the analysis inputs (market data); never bypasses a running duplicate"),
  })
  .meta({ id: "PortfolioPositionAnalysisRequest" });
export type TPositionAnalysisRequest = z.input<typeof ZPositionAnalysisRequest>;

function decoded(symbol: string): string {
  try {
    return decodeURIComponent(symbol);
  } catch {
    return symbol;
  }
}

// POST /api/v1/portfolio/positions/{symbol}/analysis – 202 TaskAccepted; 404 not held; 409 duplicate_task
export async function analyzePosition(
  symbol: string,
  input: TPositionAnalysisRequest | undefined,
  traceId: string,
): Promise<TTaskAccepted> {
  const body = ZPositionAnalysisRequest.parse(input ?? {});
  const target = resolveTradeSymbol(decoded(symbol));
  if (body.account_id) await getAccountOrThrow(body.account_id);
  const held = await db().portfolioPosition.findMany({
    where: {
      targetKey: dedupKey(target),
      quantity: { gt: 0 },
      ...(body.account_id ? { accountId: body.account_id } : { account: { active: true } }),
    },
    select: { accountId: true },
  });
  if (held.length === 0) throw ApiError.of("not_found", `No non-zero portfolio position for ${target.displayCode}`);
  if (!body.account_id && new Set(held.map((h) => h.accountId)).size > 1) {
    throw ApiError.of(
      "ambiguous_position_account",
      `${target.displayCode} is held in several accounts; pass account_id`,
    );
  }
  const request = ZAnalyzeRequest.parse({
    stock_code: target.displayCode,
    async_mode: true,
    report_type: "detailed",
    analysis_phase: body.analysis_phase,
    force_refresh: body.force,
    notify: true,
    selection_source: "manual",
    original_query: target.displayCode,
  });
  const plan: AnalysisPlan = { targets: [target], rejected: [], single: true };
  const submission = await submitAnalysisTasks(request, plan, traceId);
  if (submission.kind !== "single") throw new Error("one target gives one task");
  return submission.body;
}
