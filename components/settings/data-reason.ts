import { rejectionText } from "@/components/analysis/rejection-text";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { fmt } from "./format";

type DataTexts = Dictionary["dataUi"];
type Rejections = Dictionary["analyzeUi"]["rejectionReasons"];

/** A reason the data API gives as a code with its values (reason_code / reason_params, error_code / error_params). */
export interface DataReason {
  message: string;
  code?: string | null;
  params?: Record<string, string> | null;
}

function has<T extends object>(map: T, code: string): code is Extract<keyof T, string> {
  return Object.hasOwn(map, code);
}

/**
 * The reason in the UI language: a file's problem with its file and line, an upload refusal, or a code the resolver
 * rejected; a code this UI does not know (a newer server) keeps the API's English message.
 */
export function dataReasonText(t: DataTexts, rejections: Rejections, reason: DataReason): string {
  const { code } = reason;
  const params = reason.params ?? {};
  if (!code) return reason.message;
  if (has(t.fileProblems, code)) {
    const problem = fmt(t.fileProblems[code], params);
    return fmt(params.line ? t.problemAt : t.problemIn, { file: params.file ?? "", line: params.line ?? "", problem });
  }
  if (has(t.uploadReasons, code)) return fmt(t.uploadReasons[code], params);
  if (has(rejections, code)) {
    return `${params.token ?? ""}${t.colon}${rejectionText(rejections, { message: reason.message, reason_code: code, reason_params: params })}`;
  }
  return reason.message;
}

/** An error answer's body (reason_code, reason_params) as a DataReason. */
export function reasonOfBody(message: string, body: Record<string, unknown>): DataReason {
  const code = typeof body.reason_code === "string" ? body.reason_code : null;
  const params =
    body.reason_params && typeof body.reason_params === "object"
      ? (body.reason_params as Record<string, string>)
      : null;
  return { message, code, params };
}
