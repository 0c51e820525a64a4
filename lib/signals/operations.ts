import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  ZDecisionSignalCreateRequest,
  ZDecisionSignalItem,
  ZDecisionSignalListQuery,
  ZDecisionSignalListResponse,
  ZDecisionSignalMutationResponse,
  ZDecisionSignalStatusUpdateRequest,
  ZFeedbackItem,
  ZFeedbackRequest,
  ZLatestQuery,
  ZOutcomeListQuery,
  ZOutcomeListResponse,
  ZOutcomeRunRequest,
  ZOutcomeRunResponse,
  ZOutcomeStatsQuery,
  ZOutcomeStatsResponse,
  ZSignalIdParams,
  ZStockCodeParams,
} from "./schemas";
import { ZReassessRequest, ZReassessResponse } from "./reassess-schemas";

const TAGS = ["Decision signals"];
// Spec 5: the signal endpoints declare the cookie scheme (every non-public operation does) and say why 401.
const UNAUTHORIZED = {
  description: "Admin auth is enabled and the admin session is missing or invalid",
  schema: ZErrorResponse,
};
const NOT_FOUND = { description: "not_found: no decision signal has this id", schema: ZErrorResponse };
const BAD_REQUEST = (what: string) => ({ description: what, schema: ZErrorResponse });
const LAZY_EXPIRY =
  "Active signals whose expires_at has passed are first marked expired, in the same transaction as the read (spec 4.5 rule 1).";

export const createSignalOp = defineOperation({
  method: "POST",
  path: "/api/v1/decision-signals",
  operationId: "createDecisionSignal",
  summary: "Create a decision signal (deduplicated)",
  description:
    "Lifecycle defaults when absent: horizon intraday for action alert or an in-session market_phase (premarket, intraday, " +
    "lunch_break, closing_auction), else 3d; expires_at at the close of the N-th trading session for Nd (a signal given " +
    "during a session counts it as the first; trading days of the exchange calendar), the current session's close for intraday, " +
    "none for swing/long. An active create whose expires_at has passed is stored expired. Dedup (only with source_report_id " +
    "or trace_id): the key (source_report_id or trace_id, source_type, market, stock, action, horizon, market_phase), or the " +
    "relaxed match without horizon and market_phase against active or expired signals, returns the existing signal with " +
    "created=false: an active one unchanged (rerunning the invalidation of the opposite side), an expired one renewed to " +
    "active by an active create, anything else as it is. A new or renewed active signal invalidates the active signals of " +
    "the opposite direction ({buy, add} vs {reduce, sell, avoid}) for the same stock. The exact key is a unique index, so " +
    "parallel creates yield one row; the relaxed match is checked in the same (serialised) SQLite write transaction.",
  tags: TAGS,
  body: ZDecisionSignalCreateRequest,
  responses: {
    200: { description: "The created or matched signal", schema: ZDecisionSignalMutationResponse },
    400: BAD_REQUEST(
      "invalid_price_plan: the plan contradicts the action (a buy's stop_loss must be below the entry and its target above; mirrored for reduce/sell/avoid), or entry_low > entry_high",
    ),
    401: UNAUTHORIZED,
  },
});

export const listSignalsOp = defineOperation({
  method: "GET",
  path: "/api/v1/decision-signals",
  operationId: "listDecisionSignals",
  summary: "Decision signals, filtered, newest first",
  description: `${LAZY_EXPIRY} holding_only keeps stocks held (quantity > 0) in active portfolio accounts, read from the cached positions only; account_id narrows holding_only to one account.`,
  tags: TAGS,
  query: ZDecisionSignalListQuery,
  responses: {
    200: { description: "One page of signals and the total", schema: ZDecisionSignalListResponse },
    400: BAD_REQUEST("validation_error: a lower date bound after its upper bound"),
    401: UNAUTHORIZED,
  },
});

export const reassessSignalOp = defineOperation({
  method: "POST",
  path: "/api/v1/decision-signals/reassess",
  operationId: "reassessDecisionSignal",
  summary: "A stored report's call under a decision profile (preview, or store it)",
  description:
    "Reads the stored report's action, score, price plan, data quality and stated confidence; the call is never recomputed. " +
    "The profile gate (docs/api.md §4.6) applies to buy and add only: a stop, data quality good or degraded (conservative: " +
    "good), a stated confidence that is not low, prices in order (conservative also needs a target). A failing call becomes " +
    "watch, or alert when its prices contradict, with blocked_reason. persist=false stores nothing; persist=true stores the " +
    "signal through the ordinary create (decision_profile set, deduplicated per report, action and profile) and answers the " +
    "item, or refuses with 400 guardrail_blocked when the gate fails.",
  tags: TAGS,
  body: ZReassessRequest,
  responses: {
    200: {
      description: "The preview, and the stored or matched signal when persist was true",
      schema: ZReassessResponse,
    },
    400: BAD_REQUEST(
      "guardrail_blocked (with blocked_reason and warnings): persist refused by the profile gate; unsupported_report_type: a market review; unsupported_report_snapshot: a report without an action",
    ),
    401: UNAUTHORIZED,
    404: { description: "source_report_not_found: no stored report has this id", schema: ZErrorResponse },
  },
});

export const latestSignalsOp = defineOperation({
  method: "GET",
  path: "/api/v1/decision-signals/latest/{stock_code}",
  operationId: "latestDecisionSignals",
  summary: "The newest active signals of one stock",
  description: `${LAZY_EXPIRY} Every code variant selects the stock; page is 1 and page_size the limit.`,
  tags: TAGS,
  params: ZStockCodeParams,
  query: ZLatestQuery,
  responses: { 200: { description: "Latest active signals", schema: ZDecisionSignalListResponse }, 401: UNAUTHORIZED },
});

export const getSignalOp = defineOperation({
  method: "GET",
  path: "/api/v1/decision-signals/{signal_id}",
  operationId: "getDecisionSignal",
  summary: "One decision signal",
  description: LAZY_EXPIRY,
  tags: TAGS,
  params: ZSignalIdParams,
  responses: { 200: { description: "The signal", schema: ZDecisionSignalItem }, 401: UNAUTHORIZED, 404: NOT_FOUND },
});

export const updateSignalStatusOp = defineOperation({
  method: "PATCH",
  path: "/api/v1/decision-signals/{signal_id}/status",
  operationId: "updateDecisionSignalStatus",
  summary: "Set a signal's status (and optionally replace its metadata)",
  description:
    "Any legal status; from a terminal status (expired, invalidated, closed, archived) to active → 400. metadata, when " +
    "the key is sent, replaces the stored metadata whole (null clears it).",
  tags: TAGS,
  params: ZSignalIdParams,
  body: ZDecisionSignalStatusUpdateRequest,
  responses: {
    200: { description: "The updated signal", schema: ZDecisionSignalItem },
    400: BAD_REQUEST("invalid_signal_status: not a legal status; invalid_status_transition: terminal → active"),
    401: UNAUTHORIZED,
    404: NOT_FOUND,
  },
});

export const runOutcomesOp = defineOperation({
  method: "POST",
  path: "/api/v1/decision-signals/outcomes/run",
  operationId: "runDecisionSignalOutcomes",
  summary: "Evaluate signal outcomes on realized daily bars",
  description:
    "Engine decision-signal-v1, horizons 1d/3d/5d/10d: start price = the close of the last session closed when the signal " +
    "was created (anchor), window = the next N daily bars. Return = end close / start − 1; up (buy, add) hits at ≥ +2 %, " +
    "misses at ≤ −2 %; not_down (hold) hits at ≥ 0, misses at ≤ −2 %; not_up (reduce, sell, avoid) hits at ≤ +2 %, else " +
    "misses; watch and alert are unable (non_directional_action, final). Also max favourable/adverse excursion, whether " +
    "the entry range traded, and whether stop or target was touched first. A signal made from a report is graded only on " +
    "bars of that report's source family (else unable: bars_from_other_source). Completed and final unable rows are " +
    "skipped; recoverable unable rows (missing_anchor_price, insufficient_forward_bars, missing_end_close, " +
    "bars_from_other_source) are recomputed; force " +
    "recomputes and overwrites the row of the same signal, horizon and engine version. limit caps the signals per run " +
    "(least recently evaluated first).",
  tags: TAGS,
  body: ZOutcomeRunRequest,
  responses: {
    200: { description: "Rows written and counts", schema: ZOutcomeRunResponse },
    401: UNAUTHORIZED,
    404: NOT_FOUND,
  },
});

export const listOutcomesOp = defineOperation({
  method: "GET",
  path: "/api/v1/decision-signals/outcomes",
  operationId: "listDecisionSignalOutcomes",
  summary: "Outcome rows, filtered, most recently evaluated first",
  description: "Defaults to the current engine version (spec 4.5 rule 3).",
  tags: TAGS,
  query: ZOutcomeListQuery,
  responses: { 200: { description: "One page of outcome rows", schema: ZOutcomeListResponse }, 401: UNAUTHORIZED },
});

export const outcomeStatsOp = defineOperation({
  method: "GET",
  path: "/api/v1/decision-signals/outcomes/stats",
  operationId: "getDecisionSignalOutcomeStats",
  summary:
    "Outcome counts, hit rate and average return, overall and per horizon, action, market, phase, source, plan quality",
  description:
    "Defaults: the current engine version, all four horizons, every signal status but archived (spec 4.5 rule 3). " +
    "hit_rate_pct = hit / (hit + miss) × 100; avg_stock_return_pct over completed rows.",
  tags: TAGS,
  query: ZOutcomeStatsQuery,
  responses: { 200: { description: "Statistics", schema: ZOutcomeStatsResponse }, 401: UNAUTHORIZED },
});

export const signalOutcomesOp = defineOperation({
  method: "GET",
  path: "/api/v1/decision-signals/{signal_id}/outcomes",
  operationId: "getDecisionSignalOutcomes",
  summary: "One signal's outcome rows (current engine version), by horizon",
  tags: TAGS,
  params: ZSignalIdParams,
  responses: {
    200: { description: "The signal's outcome rows", schema: ZOutcomeListResponse },
    401: UNAUTHORIZED,
    404: NOT_FOUND,
  },
});

export const getFeedbackOp = defineOperation({
  method: "GET",
  path: "/api/v1/decision-signals/{signal_id}/feedback",
  operationId: "getDecisionSignalFeedback",
  summary: "A signal's feedback (feedback_value null when none)",
  tags: TAGS,
  params: ZSignalIdParams,
  responses: { 200: { description: "The feedback", schema: ZFeedbackItem }, 401: UNAUTHORIZED, 404: NOT_FOUND },
});

export const putFeedbackOp = defineOperation({
  method: "PUT",
  path: "/api/v1/decision-signals/{signal_id}/feedback",
  operationId: "putDecisionSignalFeedback",
  summary: "Set a signal's feedback (useful or not_useful), replacing any earlier one",
  tags: TAGS,
  params: ZSignalIdParams,
  body: ZFeedbackRequest,
  responses: { 200: { description: "The stored feedback", schema: ZFeedbackItem }, 401: UNAUTHORIZED, 404: NOT_FOUND },
});

/** The decision-signal operations of spec 4.5, for lib/openapi/operations.ts. */
export const SIGNAL_OPERATIONS: readonly Operation[] = [
  createSignalOp,
  listSignalsOp,
  reassessSignalOp,
  latestSignalsOp,
  getSignalOp,
  updateSignalStatusOp,
  runOutcomesOp,
  listOutcomesOp,
  outcomeStatsOp,
  signalOutcomesOp,
  getFeedbackOp,
  putFeedbackOp,
];
