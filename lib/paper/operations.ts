import { z } from "zod";
import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation, type Operation } from "@/lib/operation/operation";
import {
  ZPaperAccount,
  ZPaperAccountCreate,
  ZPaperAccountList,
  ZPaperAccountParams,
  ZPaperRecord,
  ZPaperRunResult,
  ZPaperStatusChange,
} from "./schemas";

const TAGS = ["Paper trading"];
const NOT_FOUND = { description: "not_found: no paper account has this id", schema: ZErrorResponse };

const RULES =
  "A paper account follows the decision signals made on its stocks after it was created, from its first session on: " +
  "a call fills at the open of the first session that opens after it (plus or minus slippage, in whole board lots, " +
  "fees and taxes paid); a sell closes and a reduce halves the position at that open; the plan's stop and target are " +
  "watched in each later session's range, the stop first when both are touched, at the open when the price gapped " +
  "through; A-shares are T+1. No leverage and no shorting. Rules: docs/api.md §15.";

export const listPaperAccountsOp = defineOperation({
  method: "GET",
  path: "/api/v1/paper/accounts",
  operationId: "listPaperAccounts",
  summary: "Paper accounts with their cash, equity and positions",
  tags: TAGS,
  responses: { 200: { description: "Every account", schema: ZPaperAccountList } },
});

export const createPaperAccountOp = defineOperation({
  method: "POST",
  path: "/api/v1/paper/accounts",
  operationId: "createPaperAccount",
  summary: "Start a paper account",
  description: `${RULES} At most 20 accounts are kept.`,
  tags: TAGS,
  body: ZPaperAccountCreate,
  responses: {
    201: { description: "Started; it trades from start_session", schema: ZPaperAccount },
    400: { description: "validation_error: a code not of the market, or 20 accounts kept", schema: ZErrorResponse },
  },
});

export const getPaperAccountOp = defineOperation({
  method: "GET",
  path: "/api/v1/paper/accounts/{id}",
  operationId: "getPaperAccount",
  summary: "A paper account's record: the account, one row per session (the equity curve) and every fill",
  tags: TAGS,
  params: ZPaperAccountParams,
  responses: { 200: { description: "The record", schema: ZPaperRecord }, 404: NOT_FOUND },
});

export const setPaperStatusOp = defineOperation({
  method: "PUT",
  path: "/api/v1/paper/accounts/{id}/status",
  operationId: "setPaperAccountStatus",
  summary: "Pause a paper account or make it active again",
  description:
    "A paused account is skipped by the runs; made active again, the next run walks every session it missed, in order.",
  tags: TAGS,
  params: ZPaperAccountParams,
  body: ZPaperStatusChange,
  responses: { 200: { description: "The account", schema: ZPaperAccount }, 404: NOT_FOUND },
});

export const deletePaperAccountOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/paper/accounts/{id}",
  operationId: "deletePaperAccount",
  summary: "Delete a paper account with its record",
  tags: TAGS,
  params: ZPaperAccountParams,
  responses: {
    200: { description: "Deleted", schema: z.object({ deleted: z.number().int() }) },
    404: NOT_FOUND,
  },
});

export const runPaperAccountOp = defineOperation({
  method: "POST",
  path: "/api/v1/paper/accounts/{id}/run",
  operationId: "runPaperAccount",
  summary: "Walk the sessions closed since the account's last one now (the daily run does the same)",
  description:
    "Each session is written once, with its fills, in one transaction: a second run of the same session, on this " +
    "replica or another, writes nothing.",
  tags: TAGS,
  params: ZPaperAccountParams,
  responses: { 200: { description: "What this run processed", schema: ZPaperRunResult }, 404: NOT_FOUND },
});

export const PAPER_OPERATIONS: readonly Operation[] = [
  listPaperAccountsOp,
  createPaperAccountOp,
  getPaperAccountOp,
  setPaperStatusOp,
  deletePaperAccountOp,
  runPaperAccountOp,
];
