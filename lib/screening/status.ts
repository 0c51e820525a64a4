import { z } from "zod";
import { defineOperation } from "@/lib/operation/operation";
import { ApiError } from "@/lib/errors/api-error";
import { getSettings } from "@/lib/settings/settings";
import { BUILT_IN_STRATEGIES } from "./strategies";

/** The screening API's version: the reference's contract as docs/api.md §14.1 describes it here. */
export const SCREENING_CONTRACT_VERSION = "dsa-screening-1";

// The screener's state for the reference's clients: its newer one asks GET /screening/status on every page (the
// sidebar), its mid-2026 one GET /alphasift/status. The screener is built in (lib/screening) and on unless
// SCREENING_ENABLED (or its older name ALPHASIFT_ENABLED) switches it off.

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

/** SCREENING_ENABLED, else its older name ALPHASIFT_ENABLED, else on. */
export function screeningConfigured(): boolean {
  const settings = getSettings();
  return settings.SCREENING_ENABLED ?? settings.ALPHASIFT_ENABLED ?? true;
}

/** 503 screening_disabled when a setting switched the screener off. */
export function assertScreeningEnabled(): void {
  if (!screeningConfigured())
    throw ApiError.of("service_unavailable", "Stock screening is switched off (SCREENING_ENABLED=false)", {
      reason_code: "screening_disabled",
    });
}

export function screeningStatus(): TScreeningStatusResponse {
  const configured = screeningConfigured();
  return {
    enabled: configured,
    available: true,
    configured,
    engine: "builtin",
    install_spec_is_default: true,
    contract_version: SCREENING_CONTRACT_VERSION,
    version: SCREENING_CONTRACT_VERSION,
    strategy_count: BUILT_IN_STRATEGIES.length,
    reference_project: null,
    reference_revision: null,
    source_health: {},
    diagnostics: configured ? {} : { reason: "Stock screening is switched off: set SCREENING_ENABLED=true to use it." },
  };
}
