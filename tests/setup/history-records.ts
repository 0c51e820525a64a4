import { expect } from "vitest";
import { ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import type { ServerDatabase } from "./server-database";

// History records for API tests: made by real analyses over HTTP, or written straight into the test
// server's database (SQLite or PostgreSQL, through ServerDatabase) where a case needs what an analysis
// cannot produce (news, old dates, many rows).

export interface MadeRecord {
  id: number;
  queryId: string;
}

/** A synchronous analysis (200) on the server; its history record's id and query_id. */
export async function analyzeRecord(baseUrl: string, body: Record<string, unknown>): Promise<MadeRecord> {
  const res = await fetch(`${baseUrl}/api/v1/analysis/analyze`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${JSON.stringify(body)}: ${text}`).toBe(200);
  const result = ZAnalysisResultResponse.parse(JSON.parse(text));
  return { id: result.report.meta.id!, queryId: result.query_id };
}

/** Copies a stored record with some columns replaced; returns the new id. */
export async function cloneRecord(
  database: ServerDatabase,
  sourceId: number,
  overrides: Record<string, unknown>,
): Promise<number> {
  const source = await database.get("SELECT * FROM analysis_history WHERE id = ?", sourceId);
  if (!source) throw new Error(`no analysis_history record ${sourceId} to clone`);
  // Rows come back normalised (timestamps as ISO text), which both databases take back as they stored them.
  const columns = Object.keys(source).filter((c) => c !== "id");
  const values = columns.map((c) => (c in overrides ? overrides[c] : source[c]));
  const row = await database.get<{ id: number }>(
    `INSERT INTO analysis_history (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) RETURNING id`,
    ...values,
  );
  return Number(row!.id);
}

/** News items of a record, in the order given. */
export async function addNews(
  database: ServerDatabase,
  historyId: number,
  items: { title: string; snippet: string; url: string }[],
): Promise<void> {
  for (const [position, item] of items.entries()) {
    await database.run(
      "INSERT INTO analysis_news (history_id, position, title, snippet, url, source) VALUES (?, ?, ?, ?, ?, ?)",
      historyId,
      position,
      item.title,
      item.snippet,
      item.url,
      "test",
    );
  }
}

/** A market review run as a task (POST market-review), waited for; its history record (query_id = task_id). */
export async function marketReviewRecord(
  baseUrl: string,
  body: Record<string, unknown>,
  timeoutMs = 30_000,
): Promise<MadeRecord> {
  const res = await fetch(`${baseUrl}/api/v1/analysis/market-review`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(202);
  const { task_id: taskId } = (await res.json()) as { task_id: string };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = (await (await fetch(`${baseUrl}/api/v1/analysis/status/${taskId}`)).json()) as {
      status: string;
      error?: string;
    };
    if (status.status === "failed") throw new Error(`market review failed: ${status.error}`);
    if (status.status === "completed") {
      const report = (await (await fetch(`${baseUrl}/api/v1/history/${taskId}`)).json()) as { meta: { id: number } };
      return { id: report.meta.id, queryId: taskId };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`market review ${taskId} did not finish within ${timeoutMs} ms`);
}
