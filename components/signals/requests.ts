import { readFailure } from "@/components/auth/api-errors";
import type { TFeedbackItem, TOutcomeRunResponse, TSignalStatus } from "@/lib/signals/schemas";

// The Signals page's writes, through the decision-signal API (spec 4.5). A failure is thrown as the API's message.

async function send<T>(url: string, method: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
    cache: "no-store",
  });
  if (!res.ok) throw new Error((await readFailure(res)).message);
  return (await res.json()) as T;
}

const BASE = "/api/v1/decision-signals";

export function putFeedback(signalId: number, value: "useful" | "not_useful"): Promise<TFeedbackItem> {
  return send(`${BASE}/${signalId}/feedback`, "PUT", { feedback_value: value, source: "web" });
}

export function patchStatus(signalId: number, status: TSignalStatus): Promise<{ status: TSignalStatus }> {
  return send(`${BASE}/${signalId}/status`, "PATCH", { status });
}

export function runOutcomes(): Promise<TOutcomeRunResponse> {
  return send(`${BASE}/outcomes/run`, "POST", {});
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
