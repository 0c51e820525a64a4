import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

// The portfolio migrations keep every stored account and trade: applied to a database holding rows of the earlier
// shape, the rows stay, trades get the currency of their market and accounts without a market the market of their
// currency (docs/api.md §12.1.1: market is one of cn|hk|us).

const ROOT = path.resolve(process.cwd(), "prisma/migrations");
const FIRST_NEW = "20261125130000_portfolio_reference_shapes";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-portfolio-migration-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("portfolio migrations keep the stored data", () => {
  it("accounts and trades of the earlier shape survive, with markets and currencies filled in", () => {
    const sqlite = new Database(path.join(dir, "m.db"));
    const names = fs
      .readdirSync(ROOT)
      .filter((n) => /^\d{14}_/.test(n))
      .sort();
    const apply = (list: string[]) =>
      list.forEach((n) => sqlite.exec(fs.readFileSync(path.join(ROOT, n, "migration.sql"), "utf8")));
    apply(names.filter((n) => n < FIRST_NEW));
    const at = Date.parse("2026-06-01T00:00:00Z");
    sqlite
      .prepare(
        "INSERT INTO portfolio_account (id, name, market, currency, active, created_at) VALUES (1, 'mixed', NULL, 'USD', 1, ?), (2, 'hk', 'hk', 'HKD', 0, ?)",
      )
      .run(at, at);
    sqlite
      .prepare(
        "INSERT INTO portfolio_trade (account_id, side, stock_code, target_key, market, quantity, price, fee, trade_date, created_at) VALUES " +
          "(1, 'buy', 'AAPL', 'stock:us:AAPL', 'us', 10, 150, 1, '2026-05-01', ?), (1, 'buy', '600519', 'stock:cn:600519', 'cn', 100, 1500, 5, '2026-05-02', ?), (2, 'buy', '00700', 'stock:hk:00700', 'hk', 100, 380, 0, '2026-05-03', ?)",
      )
      .run(at, at, at);
    apply(names.filter((n) => n >= FIRST_NEW));
    expect(
      sqlite.prepare("SELECT id, market, currency, active, updated_at AS u FROM portfolio_account ORDER BY id").all(),
    ).toEqual([
      { id: 1, market: "us", currency: "USD", active: 1, u: at },
      { id: 2, market: "hk", currency: "HKD", active: 0, u: at },
    ]);
    expect(
      sqlite
        .prepare("SELECT stock_code AS s, currency AS c, tax, fee, trade_uid AS uid FROM portfolio_trade ORDER BY id")
        .all(),
    ).toEqual([
      { s: "AAPL", c: "USD", tax: 0, fee: 1, uid: null },
      { s: "600519", c: "CNY", tax: 0, fee: 5, uid: null },
      { s: "00700", c: "HKD", tax: 0, fee: 0, uid: null },
    ]);
    sqlite.close();
  });
});
