import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { createAccount, createTrade, updateAccount } from "./store";

// SQLite only: another connection holding SQLite's single write lock (PostgreSQL has no such lock; its
// concurrent writes are covered in store.test.ts, which runs on both databases).
const temp = withTempDatabase("portfolio-busy", { MARKET_DATA_SOURCES: "sample" });

beforeEach(async () => {
  setClock(() => new Date("2026-11-20T12:00:00Z"));
  await db().portfolioAccount.deleteMany();
});

describe("portfolio writes against a locked SQLite file", () => {
  it("a write that cannot get the database (another connection holds the write lock) is 409 portfolio_busy", async () => {
    const a = await createAccount({ name: "a" });
    const other = new Database(temp.file);
    other.exec("BEGIN IMMEDIATE");
    try {
      await expect(
        createTrade({
          account_id: a.id,
          symbol: "000001",
          trade_date: "2026-03-02",
          side: "buy",
          quantity: 100,
          price: 10,
        }),
      ).rejects.toMatchObject({ status: 409, code: "portfolio_busy" });
      await expect(updateAccount(a.id, { name: "renamed" })).rejects.toMatchObject({
        status: 409,
        code: "portfolio_busy",
      });
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(
      (
        await createTrade({
          account_id: a.id,
          symbol: "000001",
          trade_date: "2026-03-02",
          side: "buy",
          quantity: 100,
          price: 10,
        })
      ).id,
    ).toBeGreaterThan(0);
  }, 30_000);
});
