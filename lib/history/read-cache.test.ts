import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db, directReader } from "@/lib/db/client";
import { testDatabaseKind, withTempDatabase } from "@/tests/kits/db/temp-database";
import { openServerDatabase } from "../../tests/setup/server-database";
import { createNameIndex, setPreferredNameSource } from "@/lib/market/symbols";
import { listHistory, listHistoryBody } from "./list";
import { historyVersion } from "./read-cache";
import { listHistoryStocks } from "./stocks";

// The history lists keep their database rows while analysis_history is unchanged. The version that
// decides it must rise with every change, whoever makes it (this process through Prisma, or another process on
// its own connection), and a list read after a change must show it. Runs on SQLite and, in the unit-pg pass, on
// PostgreSQL.

const database = withTempDatabase("history-read-cache");

let seq = 0;
async function insert(code: string, language: "zh" | "en" = "zh"): Promise<number> {
  seq += 1;
  const row = await db().analysisHistory.create({
    data: {
      queryId: `rc-${seq}`,
      stockCode: code,
      displayCode: code,
      market: "cn",
      targetKey: `stock:cn:${code}`,
      reportType: "detailed",
      reportLanguage: language,
      assetType: "stock",
      stockName: "贵州茅台",
      reportJson: "{}",
      createdAt: new Date(Date.UTC(2026, 4, 1) + seq * 60_000),
    },
  });
  return row.id;
}

afterEach(() => {
  vi.restoreAllMocks();
  setPreferredNameSource(null);
});

describe("the history lists' read cache", () => {
  it("every insert, update and delete raises the history version", async () => {
    const start = (await historyVersion())!;
    const id = await insert("600519");
    const afterInsert = (await historyVersion())!;
    expect(afterInsert).toBeGreaterThan(start);
    await db().analysisHistory.update({ where: { id }, data: { stockName: "贵州茅台" } });
    const afterUpdate = (await historyVersion())!;
    expect(afterUpdate).toBeGreaterThan(afterInsert);
    await db().analysisHistory.delete({ where: { id } });
    expect((await historyVersion())!).toBeGreaterThan(afterUpdate);
  });

  it("a repeated list reads only the version; a change makes the next one read the records again", async () => {
    await insert("000001");
    // The version is read around Prisma, by the client's direct reader (lib/db/direct-read.ts).
    const directReads = vi.spyOn(directReader()!, "one");
    const reads = vi.spyOn(db(), "$queryRawUnsafe");
    const first = await listHistory({ page: 1, limit: 20 });
    const firstReads = reads.mock.calls.length;
    expect(firstReads).toBeGreaterThanOrEqual(2); // the total, the page
    expect(await listHistory({ page: 1, limit: 20 })).toEqual(first);
    expect(reads.mock.calls.length - firstReads).toBe(0); // the version only, and not through Prisma
    expect(directReads.mock.calls.map(([sql]) => sql)).toEqual(
      Array(2).fill("SELECT version FROM history_version WHERE id = 1"),
    );
    const stocks = await listHistoryStocks({ limit: 50 });
    const stockReads = reads.mock.calls.length;
    expect(await listHistoryStocks({ limit: 50 })).toEqual(stocks);
    expect(reads.mock.calls.length - stockReads).toBe(0);

    const id = await insert("000002");
    const after = await listHistory({ page: 1, limit: 20 });
    expect(after.total).toBe(first.total + 1);
    expect(after.items[0]!.id).toBe(id);
    expect((await listHistoryStocks({ limit: 50 })).items[0]!.id).toBe(id);
  });

  it("a change another process makes on its own connection is seen by the next list", async () => {
    const before = await listHistory({ page: 1, limit: 20 });
    const stocksBefore = await listHistoryStocks({ limit: 50 });
    const other = await openServerDatabase({ databaseUrl: database.env.DATABASE_URL! });
    try {
      const removed = before.items[0]!.id;
      expect(await other.run("DELETE FROM analysis_history WHERE id = ?", removed)).toBe(1);
      const after = await listHistory({ page: 1, limit: 20 });
      expect(after.total).toBe(before.total - 1);
      expect(after.items.map((i) => i.id)).not.toContain(removed);
      expect((await listHistoryStocks({ limit: 50 })).items.map((i) => i.id)).not.toContain(removed);
      expect(stocksBefore.items.map((i) => i.id)).toContain(removed);
    } finally {
      await other.close();
    }
  });

  // The version is one row: taken at a transaction's first history write, its lock would hold every other
  // replica's history writes until that transaction ends. On PostgreSQL it is raised as the transaction commits.
  it("an open transaction with a history write holds up no other history write; its commit raises the version", async () => {
    const before = (await historyVersion())!;
    const insertSql = (code: string) =>
      `INSERT INTO analysis_history (query_id, stock_code, display_code, market, target_key, report_type, report_language, report_json, created_at)
       VALUES ('open-${code}', '${code}', '${code}', 'cn', 'stock:cn:${code}', 'detailed', 'zh', '{}', CURRENT_TIMESTAMP)`;
    if (testDatabaseKind() === "postgres") {
      const open = new pg.Client(database.env.DATABASE_URL);
      await open.connect();
      let other: Promise<unknown> = Promise.resolve();
      try {
        await open.query("BEGIN");
        await open.query(insertSql("601318"));
        // Another connection's history write completes while the first transaction is still open.
        other = db().$executeRawUnsafe(insertSql("601319"));
        const done = await Promise.race([
          other.then(() => true),
          new Promise((resolve) => setTimeout(resolve, 3000, false)),
        ]);
        expect(done).toBe(true);
        const meanwhile = (await historyVersion())!;
        expect(meanwhile).toBeGreaterThan(before);
        await open.query("COMMIT");
        expect((await historyVersion())!).toBeGreaterThan(meanwhile);
      } finally {
        await open.query("ROLLBACK").catch(() => undefined); // after a failure: lets a held-up write finish
        await other.catch(() => undefined);
        await open.end();
      }
    } else {
      // One writer at a time on SQLite: the same writes, one after the other.
      await db().$executeRawUnsafe(insertSql("601318"));
      await db().$executeRawUnsafe(insertSql("601319"));
      expect((await historyVersion())!).toBeGreaterThan(before);
    }
    const codes = (await listHistory({ page: 1, limit: 20 })).items.map((i) => i.stock_code);
    expect(codes).toEqual(expect.arrayContaining(["601318", "601319"]));
  });

  // A history write's transaction raises the version in the same commit: a list read while it is open (by another
  // request, through the direct reader) gets the version and rows from before it, without waiting for it.
  it("a version read while a history write's transaction is open neither waits for it nor sees it; its commit does", async () => {
    const before = (await historyVersion())!;
    let inside: number | null = null;
    let listed: number[] = [];
    const id = await db().$transaction(async (tx) => {
      const row = await tx.analysisHistory.create({
        data: {
          queryId: "rc-open",
          stockCode: "002594",
          displayCode: "002594",
          market: "cn",
          targetKey: "stock:cn:002594",
          reportType: "detailed",
          reportLanguage: "zh",
          reportJson: "{}",
        },
      });
      // Outside the transaction; on SQLite a read through Prisma would queue behind it (sqlite-gate.ts), this one may not.
      inside = await Promise.race([historyVersion(), new Promise<null>((resolve) => setTimeout(resolve, 2000, null))]);
      listed = (
        await Promise.race([
          listHistory({ page: 1, limit: 20 }),
          new Promise<never>((_, reject) => setTimeout(reject, 2000, new Error("list waited"))),
        ])
      ).items.map((i) => i.id);
      return row.id;
    });
    expect(inside).toBe(before);
    expect(listed).not.toContain(id);
    expect((await historyVersion())!).toBeGreaterThan(before);
    expect((await listHistory({ page: 1, limit: 20 })).items[0]!.id).toBe(id);
  });

  it("different filters and pages are kept apart", async () => {
    await insert("300750");
    const all = await listHistory({ page: 1, limit: 20 });
    const one = await listHistory({ page: 1, limit: 20, stock_code: "300750" });
    const second = await listHistory({ page: 2, limit: 1 });
    expect(one.items.every((i) => i.stock_code === "300750")).toBe(true);
    expect(one.total).toBeLessThan(all.total);
    expect(second.items.map((i) => i.id)).toEqual([all.items[1]!.id]);
  });

  it("a repeated list is the same kept answer, encoded once, and nobody can change it", async () => {
    await insert("600036");
    const first = await listHistoryBody({ page: 1, limit: 20 });
    const again = await listHistoryBody({ page: 1, limit: 20 });
    expect(again).toBe(first);
    expect(again.bytes()).toBe(first.bytes());
    expect(JSON.parse(Buffer.from(first.bytes()).toString("utf8"))).toEqual(await listHistory({ page: 1, limit: 20 }));
    expect(() => (first.value.items as unknown[]).push({})).toThrow(TypeError);
    expect(() => Object.assign(first.value, { total: 0 })).toThrow(TypeError);
    expect(() => Object.assign(first.value.items[0]!, { id: 0 })).toThrow(TypeError);
  });

  it("a changed name list rebuilds the kept answer from the kept rows, without reading them again", async () => {
    const id = await insert("600519", "en");
    const before = (await listHistory({ page: 1, limit: 20 })).items.find((i) => i.id === id)!;
    expect(before.stock_name).not.toBe("Renamed Moutai Ltd");
    const reads = vi.spyOn(db(), "$queryRawUnsafe");
    setPreferredNameSource(
      createNameIndex([
        { kind: "stock", market: "cn", code: "600519", nameZh: "贵州茅台", nameEn: "Renamed Moutai Ltd" },
      ]),
    );
    const after = await listHistoryBody({ page: 1, limit: 20 });
    expect(after.value.items.find((i) => i.id === id)!.stock_name).toBe("Renamed Moutai Ltd");
    expect(
      JSON.parse(Buffer.from(after.bytes()).toString("utf8")).items.find((i: { id: number }) => i.id === id).stock_name,
    ).toBe("Renamed Moutai Ltd");
    expect(reads.mock.calls.length).toBe(0); // the version only, read around Prisma
  });
});
