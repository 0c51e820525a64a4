import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

type Reasons = Dictionary["analyzeUi"]["rejectionReasons"];

export interface RejectionLike {
  message: string;
  reason_code?: string | null;
  reason_params?: Record<string, string> | null;
}

/** A rejected code's reason in the UI language when the API gave its code, else the API's English text. */
export function rejectionText(reasons: Reasons, item: RejectionLike): string {
  const code = item.reason_code;
  if (!code || !(code in reasons)) return item.message;
  return fmt(reasons[code as keyof Reasons], item.reason_params ?? {});
}

/** An analyze error answer's message: a rejected token's reason worded in the UI language, else the API's message. */
export function localizedFailure(
  t: { rejectionReasons: Reasons; colon: string },
  failure: { message: string; body: Record<string, unknown> },
): string {
  const { stock_code, reason_code, reason_params } = failure.body;
  if (typeof stock_code !== "string" || typeof reason_code !== "string") return failure.message;
  const params = reason_params && typeof reason_params === "object" ? (reason_params as Record<string, string>) : {};
  return `${stock_code}${t.colon}${rejectionText(t.rejectionReasons, { message: failure.message, reason_code, reason_params: params })}`;
}
