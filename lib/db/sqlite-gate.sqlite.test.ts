import { describe, expect, it } from "vitest";
import { db } from "./client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";

withTempDatabase("db-gate");

class Abort extends Error {}

function signal(): { promise: Promise<void>; fire: () => void } {
  let fire = () => {};
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

describe("SQLite: statements outside a transaction while another is open", () => {
  it("neither see its uncommitted rows nor are erased by its rollback", async () => {
    const inserted = signal();
    const outsideDone = signal();
    const transaction = db()
      .$transaction(async (tx) => {
        await tx.appState.create({ data: { key: "gate-inside", value: "uncommitted" } });
        inserted.fire();
        // Give the outside statements every chance to run while this transaction is open.
        await Promise.race([outsideDone.promise, new Promise((resolve) => setTimeout(resolve, 300))]);
        throw new Abort();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Abort)) throw error;
      });

    await inserted.promise;
    const outside = (async () => {
      await db().appState.create({ data: { key: "gate-outside", value: "committed" } });
      const seen = await db().appState.findMany({ select: { key: true } });
      outsideDone.fire();
      return seen.map((row) => row.key);
    })();

    const [, seenOutside] = await Promise.all([transaction, outside]);
    expect(seenOutside).not.toContain("gate-inside");
    expect(seenOutside).toContain("gate-outside");
    const after = await db().appState.findMany({ select: { key: true }, orderBy: { key: "asc" } });
    expect(after.map((row) => row.key)).toEqual(["gate-outside"]);
  });

  it("still run one after another when no transaction is open, and a failed transaction does not hold the gate", async () => {
    await expect(
      db().$transaction(async (tx) => {
        await tx.appState.create({ data: { key: "gate-failed", value: "x" } });
        throw new Abort();
      }),
    ).rejects.toBeInstanceOf(Abort);
    const keys = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db().appState.create({ data: { key: `gate-many-${String(i).padStart(2, "0")}`, value: "v" } }),
      ),
    );
    expect(keys).toHaveLength(20);
    expect(await db().appState.count({ where: { key: { startsWith: "gate-many-" } } })).toBe(20);
    expect(await db().appState.count({ where: { key: "gate-failed" } })).toBe(0);
  });

  it("a transaction whose COMMIT fails leaves the gate open: its rows are gone, and later statements and transactions run", async () => {
    // A foreign key checked at COMMIT (deferred) makes the COMMIT statement itself fail; Prisma then calls neither
    // commit() nor rollback() on the transaction.
    await expect(
      db().$transaction(async (tx) => {
        await tx.$executeRawUnsafe("PRAGMA defer_foreign_keys = ON");
        await tx.appState.create({ data: { key: "gate-commit-failed", value: "x" } });
        await tx.analysisNews.create({
          data: { historyId: 987_654, position: 0, title: "orphan", snippet: "", url: "https://example.test/" },
        });
      }),
    ).rejects.toThrow();
    expect(await db().appState.count({ where: { key: "gate-commit-failed" } })).toBe(0);
    expect(await db().analysisNews.count({ where: { historyId: 987_654 } })).toBe(0);
    await db().$transaction(async (tx) =>
      tx.appState.create({ data: { key: "gate-after-failed-commit", value: "y" } }),
    );
    expect(await db().appState.count({ where: { key: "gate-after-failed-commit" } })).toBe(1);
  });
});
