import path from "node:path";
import Database from "better-sqlite3";
import type { ServerProcess } from "../scripts/server-process";

// Seeding history for the benchmarks: one real record (a sample-data analysis through the API) is the
// template; the rest are copies written straight into the server's SQLite file in one transaction. The
// copies keep the template's list columns and report_json but drop the large per-run blobs (raw_result,
// context_snapshot, diagnostics, flow) that no list query reads, so 100,000 rows stay a few hundred MB.

export interface SeedOptions {
  records: number;
  /** Distinct stocks the records spread over (round robin). */
  stocks: number;
  /** News rows per record. */
  newsPerRecord?: number;
  /** First code; stock i gets code + i (six digits, A-share). */
  firstCode?: number;
}

export async function analyzeTemplate(server: Pick<ServerProcess, "baseUrl">): Promise<number> {
  const res = await fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ stock_code: "600519" }),
  });
  if (res.status !== 200) throw new Error(`template analysis: HTTP ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { report: { meta: { id: number } } };
  return body.report.meta.id;
}

export function databasePath(server: Pick<ServerProcess, "dataDir">): string {
  return path.join(server.dataDir, "api.db");
}

/** Writes `records` copies of the template; created_at one second apart, newest last. Returns seconds taken. */
export function seedHistory(dbFile: string, templateId: number, options: SeedOptions): number {
  const started = performance.now();
  const sqlite = new Database(dbFile);
  sqlite.pragma("busy_timeout = 10000");
  const columns = (sqlite.prepare("PRAGMA table_info(analysis_history)").all() as { name: string }[])
    .map((c) => c.name)
    .filter((c) => c !== "id");
  const overrides: Record<string, string> = {
    query_id: "@query_id",
    stock_code: "@code",
    display_code: "@code",
    stock_name: "@name",
    target_key: "@target_key",
    created_at: "@created_at",
    raw_result: "NULL",
    context_snapshot: "NULL",
    diagnostics: "NULL",
    flow: "NULL",
  };
  const select = columns.map((c) => overrides[c] ?? c).join(", ");
  const insert = sqlite.prepare(
    `INSERT INTO analysis_history (${columns.join(", ")}) SELECT ${select} FROM analysis_history WHERE id = @template`,
  );
  const news = sqlite.prepare(
    "INSERT INTO analysis_news (history_id, position, title, snippet, url, source) VALUES (?, ?, ?, ?, ?, 'bench')",
  );
  const { createdAt } = sqlite
    .prepare("SELECT created_at AS createdAt FROM analysis_history WHERE id = ?")
    .get(templateId) as { createdAt: string };
  const base = Date.parse(createdAt.replace(/\+00:00$/, "Z")) - options.records * 1000;
  const firstCode = options.firstCode ?? 600000;
  sqlite.transaction(() => {
    for (let i = 0; i < options.records; i++) {
      const code = String(firstCode + (i % options.stocks)).padStart(6, "0");
      const info = insert.run({
        template: templateId,
        query_id: `bench-${options.firstCode ?? 0}-${i}`,
        code,
        name: `样本${code}`,
        target_key: `stock:cn:${code}`,
        created_at: new Date(base + i * 1000).toISOString().replace("Z", "+00:00"),
      });
      for (let p = 0; p < (options.newsPerRecord ?? 0); p++) {
        news.run(
          Number(info.lastInsertRowid),
          p,
          `新闻 ${code} ${i}-${p}`,
          "bench news snippet",
          `https://news.example.com/${i}/${p}`,
        );
      }
    }
  })();
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.exec("ANALYZE");
  sqlite.close();
  return (performance.now() - started) / 1000;
}

/**
 * After a long seed the client's pooled keep-alive socket has outlived the server's keep-alive timeout;
 * an untimed request first (retried once on such a stale socket) leaves a fresh connection for the timed ones.
 */
export async function reconnect(baseUrl: string): Promise<void> {
  const ping = () => fetch(`${baseUrl}/api/v1/health`).then((r) => r.arrayBuffer());
  await ping().catch(ping);
}
