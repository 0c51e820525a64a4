import { z } from "zod";
import { defineOperation } from "@/lib/operation/operation";
import { getSettings } from "@/lib/settings/settings";

// The screener's state for the reference's clients: its newer one asks GET /screening/status on every page (the
// sidebar), its mid-2026 one GET /alphasift/status. This build has no screener yet, so it is never available;
// `enabled` says whether it is switched on and usable, which without a screener it cannot be.

export const ZScreeningStatusResponse = z
  .object({
    enabled: z.boolean().describe("Switched on and available: the client shows its screening page only then"),
    available: z.boolean().describe("Whether this build has a screener"),
    configured: z.boolean().describe("SCREENING_ENABLED (or its older name ALPHASIFT_ENABLED) as set"),
    engine: z.string(),
    install_spec_is_default: z.boolean(),
    contract_version: z.string().nullable(),
    version: z.string().nullable(),
    strategy_count: z.number().int().nonnegative(),
    reference_project: z.string().nullable(),
    reference_revision: z.string().nullable(),
    source_health: z.record(z.string(), z.unknown()),
    diagnostics: z.record(z.string(), z.string()),
  })
  .meta({ id: "ScreeningStatusResponse" });

export type TScreeningStatusResponse = z.infer<typeof ZScreeningStatusResponse>;

const statusOp = (path: string, operationId: string, summary: string) =>
  defineOperation({
    method: "GET",
    path,
    operationId,
    summary,
    tags: ["System config"],
    responses: { 200: { description: "The screener's state", schema: ZScreeningStatusResponse } },
  });

export const getScreeningStatusOp = statusOp(
  "/api/v1/screening/status",
  "getScreeningStatus",
  "Stock screening status (asked by the reference's sidebar on every page)",
);
export const getAlphasiftStatusOp = statusOp(
  "/api/v1/alphasift/status",
  "getAlphasiftStatus",
  "Stock screening status under the reference's older path",
);

/** SCREENING_ENABLED, else its older name ALPHASIFT_ENABLED, else off. */
export function screeningConfigured(): boolean {
  const settings = getSettings();
  return settings.SCREENING_ENABLED ?? settings.ALPHASIFT_ENABLED ?? false;
}

export function screeningStatus(): TScreeningStatusResponse {
  const configured = screeningConfigured();
  return {
    enabled: false,
    available: false,
    configured,
    engine: "dsa",
    install_spec_is_default: true,
    contract_version: null,
    version: null,
    strategy_count: 0,
    reference_project: null,
    reference_revision: null,
    source_health: {},
    diagnostics: {
      reason: configured
        ? "SCREENING_ENABLED is on, but this build of DSA has no stock screener yet; the watchlist, alerts and backtests cover its daily use."
        : "This build of DSA has no stock screener yet (SCREENING_ENABLED is off); the watchlist, alerts and backtests cover its daily use.",
    },
  };
}
