import type { AnalysisHistory } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { MARKET_REVIEW_REPORT_TYPE } from "./run";
import { storedPayloadOf } from "./stored-payload";
import type { TMarketReviewRegion } from "./schemas";

// Readers of stored reviews: the status endpoint (spec 4.2 status rule 2: a stored market review yields
// market_review_report, market_review_payload and region) and the Market page (the latest review).

export interface MarketReviewParts {
  /** The standalone review text; "" when the record holds none. */
  report: string;
  /** The stored structured payload (ZMarketReviewPayload when written by runMarketReview), else null. */
  payload: Record<string, unknown> | null;
  region: string | null;
}

function dict(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function parse(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    return dict(JSON.parse(text));
  } catch {
    return null;
  }
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Report text, payload and region of a stored review; older or partial records degrade to what they hold. */
export function getMarketReviewParts(record: AnalysisHistory): MarketReviewParts {
  const raw = parse(record.rawResult);
  const report = text(raw?.report) ?? text(raw?.markdown) ?? text(raw?.content) ?? record.analysisSummary ?? "";
  return { report, payload: storedPayloadOf(parse(record.contextSnapshot), raw), region: record.region };
}

export interface StoredMarketReview extends MarketReviewParts {
  record: AnalysisHistory;
}

/** The most recent market review (highest id), of one region when given ("both" is its own region). */
export async function latestMarketReview(region?: TMarketReviewRegion): Promise<StoredMarketReview | null> {
  const record = await db().analysisHistory.findFirst({
    where: { reportType: MARKET_REVIEW_REPORT_TYPE, ...(region ? { region } : {}) },
    orderBy: { id: "desc" },
  });
  return record ? { record, ...getMarketReviewParts(record) } : null;
}
