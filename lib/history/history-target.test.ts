import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { testDatabaseKind, withTempDatabase } from "@/tests/kits/db/temp-database";
import { listHistory } from "./list";
import { listHistoryStocks } from "./stocks";

// History_target (one row per target: latest record id and record count, kept by database
// triggers) serves /history/stocks and the unfiltered /history total without scanning the records. Over
// random histories of inserts, deletes by id, deletes by target and target changes, run one at a time and
// concurrently, it must equal the spec's rule 3 computed from the records themselves. Runs on SQLite and,
// in the unit-pg pass, on PostgreSQL (statement-level triggers there).

const database = withTempDatabase("history-target");

const TARGETS = [
  "stock:cn:600519",
  "stock:cn:000001",
  "stock:us:AAPL",
  "index:000300.SH",
  "market:cn",
  "stock:hk:00700",
];

type Op =
  | { kind: "insert"; target: number }
  | { kind: "deleteIds"; picks: number[] }
  | { kind: "deleteTarget"; target: number }
  | { kind: "retarget"; pick: number; target: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("insert" as const), target: fc.nat(TARGETS.length - 1) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("deleteIds" as const),
      picks: fc.array(fc.nat(1000), { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("deleteTarget" as const), target: fc.nat(TARGETS.length - 1) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("retarget" as const),
      pick: fc.nat(1000),
      target: fc.nat(TARGETS.length - 1),
    }),
  },
);

let seq = 0;
async function insert(targetKey: string): Promise<void> {
  seq += 1;
  const [kind, market, code] = targetKey.split(":");
  await db().analysisHistory.create({
    data: {
      queryId: `ht-${seq}`,
      stockCode: code ?? market!,
      displayCode: code ?? market!,
      market: kind === "index" ? "cn" : market!,
      targetKey,
      reportType: "detailed",
      reportLanguage: "zh",
      reportJson: "{}",
      createdAt: new Date(Date.UTC(2026, 4, 1) + seq * 60_000),
    },
  });
}

async function apply(op: Op): Promise<void> {
  const ids = (await db().analysisHistory.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((r) => r.id);
  const pick = (n: number) => (ids.length ? ids[n % ids.length]! : -1);
  switch (op.kind) {
    case "insert":
      return insert(TARGETS[op.target]!);
    case "deleteIds":
      await db().analysisHistory.deleteMany({ where: { id: { in: op.picks.map(pick) } } });
      return;
    case "deleteTarget":
      await db().analysisHistory.deleteMany({ where: { targetKey: TARGETS[op.target]! } });
      return;
    case "retarget":
      await db().analysisHistory.updateMany({ where: { id: pick(op.pick) }, data: { targetKey: TARGETS[op.target]! } });
      return;
  }
}

/** Rule 3 from the records: stock and index targets, each with its highest id and record count, newest first. */
async function expectedFromRecords(): Promise<{
  targets: { targetKey: string; latestId: number; recordCount: number }[];
  records: number;
}> {
  const rows = await db().analysisHistory.findMany({ select: { id: true, targetKey: true } });
  const byTarget = new Map<string, { targetKey: string; latestId: number; recordCount: number }>();
  for (const row of rows) {
    const entry = byTarget.get(row.targetKey) ?? { targetKey: row.targetKey, latestId: 0, recordCount: 0 };
    entry.latestId = Math.max(entry.latestId, row.id);
    entry.recordCount += 1;
    byTarget.set(row.targetKey, entry);
  }
  return { targets: [...byTarget.values()].sort((a, b) => b.latestId - a.latestId), records: rows.length };
}

async function expectConsistent(): Promise<void> {
  const { targets, records } = await expectedFromRecords();
  const kept = await db().historyTarget.findMany({ orderBy: { latestId: "desc" } });
  // A target whose records are all gone keeps a row with a count of 0 (and latest id 0).
  expect(kept.filter((t) => t.recordCount > 0)).toEqual(targets);
  for (const t of kept.filter((t) => t.recordCount === 0)) expect(t.latestId).toBe(0);
  const stocks = targets.filter((t) => t.targetKey.startsWith("stock:") || t.targetKey.startsWith("index:"));
  for (const limit of [1, 2, 50]) {
    const listed = await listHistoryStocks({ limit });
    expect(listed.total).toBe(stocks.length);
    expect(listed.items.map((i) => [i.id, i.analysis_count])).toEqual(
      stocks.slice(0, limit).map((t) => [t.latestId, t.recordCount]),
    );
  }
  expect((await listHistory({ page: 1, limit: 20 })).total).toBe(records);
}

/** Until PostgreSQL backend `pid` is blocked on a lock (its statement has reached the held row). */
async function waitUntilWaitingForLock(pid: number): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    const rows = await db().$queryRawUnsafe<{ wait: string | null }[]>(
      `SELECT wait_event_type AS wait FROM pg_stat_activity WHERE pid = ${pid}`,
    );
    if (rows[0]?.wait === "Lock") return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`backend ${pid} never waited for a lock`);
}

describe("history_target equals the records' own latest row and count per target", () => {
  it("after every step of random histories, one write at a time", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        await db().analysisHistory.deleteMany({});
        for (const op of ops) {
          await apply(op);
          await expectConsistent();
        }
      }),
      { numRuns: 12 },
    );
  });

  it("after random histories written concurrently", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 40 }), async (ops) => {
        await db().analysisHistory.deleteMany({});
        for (const target of TARGETS) await insert(target);
        await Promise.all(ops.map((op) => apply(op)));
        await expectConsistent();
      }),
      { numRuns: 10 },
    );
  });

  // A CI run found a target with no records left that kept a deleted record's id: on PostgreSQL a target change
  // that had waited for a concurrent delete's lock read the records from its snapshot taken before the delete.
  // Here the two are forced into that order (on SQLite writes cannot overlap, so they run one after the other).
  it("a target change that waits for a concurrent delete of the target's latest record sees that delete", async () => {
    await db().analysisHistory.deleteMany({});
    await insert("stock:cn:600519");
    await insert("stock:cn:600519");
    const [older, latest] = (await db().analysisHistory.findMany({ orderBy: { id: "asc" } })).map((r) => r.id);
    const remove = `DELETE FROM analysis_history WHERE id = ${latest}`;
    const move = `UPDATE analysis_history SET target_key = 'stock:us:AAPL' WHERE id = ${older}`;
    if (testDatabaseKind() === "postgres") {
      const [deleting, moving] = [new pg.Client(database.env.DATABASE_URL), new pg.Client(database.env.DATABASE_URL)];
      await Promise.all([deleting.connect(), moving.connect()]);
      try {
        const [{ pid }] = (await moving.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows as [
          { pid: number },
        ];
        await deleting.query("BEGIN");
        await deleting.query(remove);
        const moved = moving.query(move);
        await waitUntilWaitingForLock(pid);
        await deleting.query("COMMIT");
        await moved;
      } finally {
        await Promise.all([deleting.end(), moving.end()]);
      }
    } else {
      await db().$executeRawUnsafe(remove);
      await db().$executeRawUnsafe(move);
    }
    const kept = await db().historyTarget.findMany({
      where: { targetKey: { in: ["stock:cn:600519", "stock:us:AAPL"] } },
      orderBy: { targetKey: "asc" },
    });
    expect(kept.map((t) => [t.targetKey, t.latestId, t.recordCount])).toEqual([
      ["stock:cn:600519", 0, 0],
      ["stock:us:AAPL", older, 1],
    ]);
    await expectConsistent();
  });

  it("a date range still groups the records themselves", async () => {
    await db().analysisHistory.deleteMany({});
    for (const target of TARGETS) await insert(target);
    const all = await listHistoryStocks({ limit: 50 });
    const ranged = await listHistoryStocks({ limit: 50, start_date: "2000-01-01", end_date: "2100-01-01" });
    expect(ranged).toEqual(all);
    expect(all.total).toBe(5);
  });
});
