import { requestJson } from "@/components/ui/request";

// The two delete calls of the History pages (DELETE /api/v1/history and /api/v1/history/by-code/{code}).
// Both answer { deleted }; a failure is thrown as the API's message so the dialog can show it.

async function send(url: string, body?: unknown): Promise<number> {
  const answer = await requestJson<{ deleted?: unknown }>("DELETE", url, body);
  return typeof answer?.deleted === "number" ? answer.deleted : 0;
}

export function deleteRecords(ids: readonly number[]): Promise<number> {
  return send("/api/v1/history", { record_ids: ids });
}

export function deleteStockRecords(stockCode: string): Promise<number> {
  return send(`/api/v1/history/by-code/${encodeURIComponent(stockCode)}`);
}

export { messageOf as errorText } from "@/components/ui/request";
