import { requestJson } from "@/components/ui/request";
import type { TFeedbackItem, TOutcomeRunResponse, TSignalStatus } from "@/lib/signals/schemas";

// The Signals page's writes, through the decision-signal API (spec 4.5). A failure is thrown as the API's message.

function send<T>(url: string, method: "PUT" | "PATCH" | "POST", body: unknown): Promise<T> {
  return requestJson<T>(method, url, body);
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

export { messageOf as errorText } from "@/components/ui/request";
