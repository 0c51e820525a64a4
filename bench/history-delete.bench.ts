import fs from "node:fs";
import Database from "better-sqlite3";
import { analyzeTemplate, databasePath, reconnect, seedHistory } from "./history-seed";
import { startServiceProcess } from "../scripts/server-process";
import type { Benchmark, BenchRow } from "./harness";

// Issue 6: DELETE /api/v1/history/by-code/{code} removing 100,000 records (with one news row each) in the
// spec's passes of 10,000, against the same delete as two plain SQL statements in one transaction on an
// identical copy of the database (better-sqlite3, no passes, no framework).

const RECORDS = Number(process.env.BENCH_HISTORY_RECORDS ?? 100_000);
const CODE = "600519";

const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

function bareDelete(dbFile: string): { seconds: number; deleted: number } {
  const sqlite = new Database(dbFile);
  const started = performance.now();
  const deleted = sqlite.transaction(() => {
    sqlite.prepare("DELETE FROM analysis_news WHERE history_id IN (SELECT id FROM analysis_history WHERE target_key = ?)").run(`stock:cn:${CODE}`);
    return sqlite.prepare("DELETE FROM analysis_history WHERE target_key = ?").run(`stock:cn:${CODE}`).changes;
  })();
  const seconds = (performance.now() - started) / 1000;
  sqlite.close();
  return { seconds, deleted };
}

export const historyDeleteBenchmark: Benchmark = {
  name: "history-delete",
  async run(): Promise<BenchRow[]> {
    // The process handle (not harness.startService) because seeding writes into its data folder.
    const service = await startServiceProcess({ LOG_LEVEL: "warn", MARKET_DATA_SOURCES: "sample" });
    try {
      const templateId = await analyzeTemplate(service);
      const dbFile = databasePath(service);
      // One stock (code 600519) holds RECORDS records besides the template; 1,000 records of other stocks stay.
      seedHistory(dbFile, templateId, { records: RECORDS - 1, stocks: 1, firstCode: Number(CODE), newsPerRecord: 1 });
      seedHistory(dbFile, templateId, { records: 1_000, stocks: 10, firstCode: 1 });
      const copy = `${dbFile}.bare-copy`;
      fs.copyFileSync(dbFile, copy);

      await reconnect(service.baseUrl);
      const started = performance.now();
      const res = await fetch(`${service.baseUrl}/api/v1/history/by-code/${CODE}`, { method: "DELETE" });
      const seconds = (performance.now() - started) / 1000;
      const body = (await res.json()) as { deleted: number };
      if (res.status !== 200 || body.deleted !== RECORDS) throw new Error(`by-code delete: HTTP ${res.status}, deleted ${body.deleted}, expected ${RECORDS}`);
      const bare = bareDelete(copy);
      if (bare.deleted !== RECORDS) throw new Error(`bare delete removed ${bare.deleted}`);
      fs.rmSync(copy, { force: true });
      const benchmark = `DELETE /api/v1/history/by-code (${RECORDS} records + news)`;
      return [
        { benchmark, subject: "bare better-sqlite3, one transaction", metric: "time", value: round(bare.seconds, 3), unit: "s" },
        { benchmark, subject: "DSA (next start), passes of 10,000", metric: "time", value: round(seconds, 3), unit: "s", ratio: round(seconds / bare.seconds, 3) },
      ];
    } finally {
      await service.stop();
    }
  },
};
