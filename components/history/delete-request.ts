import { readFailure } from "@/components/auth/api-errors";

// The two delete calls of the History pages (DELETE /api/v1/history and /api/v1/history/by-code/{code}).
// Both answer { deleted }; a failure is thrown as the API's message so the dialog can show it.

async function send(url: string, init: RequestInit): Promise<number> {
  const res = await fetch(url, {
    ...init,
    headers: { "content-type": "application/json", accept: "application/json" },
    cache: "no-store",
  });
  if (!res.ok) throw new Error((await readFailure(res)).message);
  const body = (await res.json()) as { deleted?: unknown };
  return typeof body.deleted === "number" ? body.deleted : 0;
}

export function deleteRecords(ids: readonly number[]): Promise<number> {
  return send("/api/v1/history", { method: "DELETE", body: JSON.stringify({ record_ids: ids }) });
}

export function deleteStockRecords(stockCode: string): Promise<number> {
  return send(`/api/v1/history/by-code/${encodeURIComponent(stockCode)}`, { method: "DELETE" });
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
