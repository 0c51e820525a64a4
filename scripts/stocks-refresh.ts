import Database from "better-sqlite3";
import { getSettings } from "@/lib/settings/settings";
import { db, disconnectDb } from "@/lib/db/client";
import { databaseFilePath, databaseKind, redactedDatabaseUrl, resolveDatabaseUrl } from "@/lib/db/database-url";
import { loadStockListNameSource, refreshStockList } from "@/lib/market/stock-list";

// npm run stocks:refresh: pull the full A-share, HK and US lists from Eastmoney and upsert
// them into the stock_listing table of DATABASE_URL, which symbol lookup then prefers over the bundled list.
// Exit codes: 0 every market read in full; 1 a market failed or was read only in part (what was read is
// still stored); 2 the database is not ready (run `npm run db:migrate` first).

async function tableExists(url: string): Promise<boolean> {
  if (databaseKind(url) === "postgres") {
    const rows = await db()
      .$queryRawUnsafe<{ found: string | null }[]>("SELECT to_regclass('public.stock_listing')::text AS found")
      .catch(() => []);
    return rows[0]?.found != null;
  }
  const file = databaseFilePath(url);
  if (file === ":memory:") return false;
  let sqlite: Database.Database | null = null;
  try {
    sqlite = new Database(file, { fileMustExist: true, readonly: true });
    return (
      sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'stock_listing'").get() !== undefined
    );
  } catch {
    return false;
  } finally {
    sqlite?.close();
  }
}

const where = (url: string) => (databaseKind(url) === "postgres" ? redactedDatabaseUrl(url) : databaseFilePath(url));

async function main(): Promise<number> {
  const settings = getSettings();
  const url = resolveDatabaseUrl(settings.DATABASE_URL);
  if (!(await tableExists(url))) {
    console.error(
      `stocks:refresh: the database at ${where(url)} has no stock_listing table; run \`npm run db:migrate\` first.`,
    );
    return 2;
  }
  console.log(`stocks:refresh: fetching the A-share, HK and US lists from Eastmoney into ${where(url)}`);
  const summary = await refreshStockList({
    timeoutMs: settings.MARKET_DATA_TIMEOUT_MS,
    pauseMs: 150,
    onPage: ({ market, page, total }) => {
      if (page === 1) console.log(`  ${market}: ${total} listings reported, reading pages of 100…`);
    },
  });

  for (const m of summary.markets) {
    const state = m.complete ? "ok" : m.written > 0 ? "PARTIAL" : "FAILED";
    const detail = m.error ? ` — ${m.error}` : "";
    console.log(
      `  ${m.market}: ${state}: ${m.written} of ${m.listed} listings written, ${m.stored} in the table${detail}`,
    );
  }

  if (summary.offline) {
    console.error(
      "stocks:refresh: could not reach Eastmoney (push2.eastmoney.com) — the machine looks offline or the host is blocked. " +
        "No listing was changed; symbol lookup keeps using the stored and bundled lists. Try again when online.",
    );
    return 1;
  }

  const loaded = await loadStockListNameSource();
  console.log(
    `stocks:refresh: name source check: ${loaded.count} listings load (cn ${loaded.byMarket.cn}, hk ${loaded.byMarket.hk}, us ${loaded.byMarket.us})`,
  );
  if (!summary.ok) {
    const failed = summary.markets
      .filter((m) => !m.complete)
      .map((m) => m.market)
      .join(", ");
    console.error(
      `stocks:refresh: incomplete for ${failed}; rows read were stored, nothing was deleted. Run it again to finish.`,
    );
    return 1;
  }
  return 0;
}

main()
  .then(async (code) => {
    await disconnectDb();
    process.exitCode = code;
  })
  .catch(async (error: unknown) => {
    console.error(`stocks:refresh: failed: ${error instanceof Error ? error.message : String(error)}`);
    await disconnectDb().catch(() => undefined);
    process.exitCode = 1;
  });
