import path from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import { ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import type { TestServer } from "./api-server";

// History records for API tests: made by real analyses over HTTP, or written straight into the test
// server's database where a case needs what an analysis cannot produce (news, old dates, many rows).

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
  expect(res.status, JSON.stringify(body)).toBe(200);
  const result = ZAnalysisResultResponse.parse(await res.json());
  return { id: result.report.meta.id!, queryId: result.query_id };
}

/** The test server's SQLite database, for direct reads and writes beside the service. */
export function openServerDatabase(server: Pick<TestServer, "dataDir">): Database.Database {
  const sqlite = new Database(path.join(server.dataDir, "api.db"));
  sqlite.pragma("busy_timeout = 5000");
  return sqlite;
}

/** Copies a stored record with some columns replaced; returns the new id. */
export function cloneRecord(sqlite: Database.Database, sourceId: number, overrides: Record<string, unknown>): number {
  const columns = (sqlite.prepare("PRAGMA table_info(analysis_history)").all() as { name: string }[]).map((c) => c.name).filter((c) => c !== "id");
  const select = columns.map((c) => (c in overrides ? `@${c}` : c)).join(", ");
  const info = sqlite.prepare(`INSERT INTO analysis_history (${columns.join(", ")}) SELECT ${select} FROM analysis_history WHERE id = @sourceId`).run({ ...overrides, sourceId });
  return Number(info.lastInsertRowid);
}

/** News items of a record, in the order given. */
export function addNews(sqlite: Database.Database, historyId: number, items: { title: string; snippet: string; url: string }[]): void {
  const insert = sqlite.prepare("INSERT INTO analysis_news (history_id, position, title, snippet, url, source) VALUES (?, ?, ?, ?, ?, ?)");
  items.forEach((item, position) => insert.run(historyId, position, item.title, item.snippet, item.url, "test"));
}

/** A market review run as a task (POST market-review), waited for; its history record (query_id = task_id). */
export async function marketReviewRecord(baseUrl: string, body: Record<string, unknown>, timeoutMs = 30_000): Promise<MadeRecord> {
  const res = await fetch(`${baseUrl}/api/v1/analysis/market-review`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(202);
  const { task_id: taskId } = (await res.json()) as { task_id: string };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = (await (await fetch(`${baseUrl}/api/v1/analysis/status/${taskId}`)).json()) as { status: string; error?: string };
    if (status.status === "failed") throw new Error(`market review failed: ${status.error}`);
    if (status.status === "completed") {
      const report = (await (await fetch(`${baseUrl}/api/v1/history/${taskId}`)).json()) as { meta: { id: number } };
      return { id: report.meta.id, queryId: taskId };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`market review ${taskId} did not finish within ${timeoutMs} ms`);
}
