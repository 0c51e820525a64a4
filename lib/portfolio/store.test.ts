import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import {
  createAccount,
  createTrade,
  deactivateAccount,
  deleteTrade,
  listAccounts,
  listPositions,
  listTrades,
  updateAccount,
} from "./store";

withTempDatabase("portfolio-store", { MARKET_DATA_SOURCES: "sample" });

beforeEach(async () => {
  setClock(() => new Date("2026-11-20T12:00:00Z"));
  await db().portfolioAccount.deleteMany();
});

describe("accounts and trades in the reference's shapes (docs/api.md §12.1.1-4, §12.1.10)", () => {
  it("an account: defaults, update by PUT fields, soft delete leaves it listed only with include_inactive", async () => {
    const account = await createAccount({ name: "main", broker: "Demo", base_currency: "usd" });
    expect(account).toMatchObject({
      name: "main",
      broker: "Demo",
      market: "cn",
      base_currency: "USD",
      is_active: true,
      owner_id: null,
      trade_count: 0,
    });
    const updated = await updateAccount(account.id, { market: "us", owner_id: "me" });
    expect(updated).toMatchObject({ market: "us", owner_id: "me", name: "main" });
    expect(await deactivateAccount(account.id)).toEqual({ deleted: 1 });
    expect((await listAccounts()).accounts).toEqual([]);
    expect((await listAccounts({ include_inactive: true })).accounts).toEqual([
      expect.objectContaining({ id: account.id, is_active: false }),
    ]);
    await expect(deactivateAccount(account.id + 1000)).rejects.toMatchObject({ status: 404, code: "not_found" });
  });

  it("trades: symbol spellings, market and currency from the code, tax in the cost, trade_uid unique per account, filters", async () => {
    const a = await createAccount({ name: "a" });
    const b = await createAccount({ name: "b" });
    const first = await createTrade({
      account_id: a.id,
      symbol: "sh600519",
      trade_date: "2026-03-02",
      side: "buy",
      quantity: 100,
      price: 1400,
      fee: 5,
      tax: 1,
      trade_uid: "T1",
    });
    expect(first).toMatchObject({ symbol: "600519", market: "cn", currency: "CNY", tax: 1, trade_uid: "T1" });
    await createTrade({
      account_id: a.id,
      symbol: "700",
      market: "hk",
      trade_date: "2026-03-03",
      side: "buy",
      quantity: 200,
      price: 380,
    });
    await createTrade({
      account_id: a.id,
      symbol: "600519",
      trade_date: "2026-04-01",
      side: "sell",
      quantity: 40,
      price: 1500,
      tax: 6,
    });
    // The same trade_uid in another account is fine; in the same account it is a conflict.
    await createTrade({
      account_id: b.id,
      symbol: "AAPL",
      trade_date: "2026-03-02",
      side: "buy",
      quantity: 1,
      price: 100,
      trade_uid: "T1",
      currency: "usd",
    });
    await expect(
      createTrade({
        account_id: a.id,
        symbol: "600519",
        trade_date: "2026-03-05",
        side: "buy",
        quantity: 1,
        price: 1,
        trade_uid: "T1",
      }),
    ).rejects.toMatchObject({ status: 409, code: "conflict" });
    await expect(
      createTrade({
        account_id: a.id,
        symbol: "AAPL",
        market: "cn",
        trade_date: "2026-03-05",
        side: "buy",
        quantity: 1,
        price: 1,
      }),
    ).rejects.toMatchObject({ status: 400 });

    const moutai = (await listPositions(a.id)).items.find((p) => p.symbol === "600519")!;
    expect(moutai.quantity).toBe(60);
    expect(moutai.avg_cost).toBeCloseTo((140_000 + 5 + 1) / 100, 10);
    // Realized: 40 × (1500 − 6/40 − 1400.06).
    expect(moutai.realized_pnl_fifo).toBeCloseTo(40 * (1500 - 6 / 40 - 1400.06), 8);
    expect((await listPositions(a.id)).items.find((p) => p.symbol === "00700")?.quantity).toBe(200);

    expect((await listTrades({ account_id: a.id })).total).toBe(3);
    expect((await listTrades({ account_id: a.id, side: "sell" })).items.map((t) => t.side)).toEqual(["sell"]);
    expect((await listTrades({ account_id: a.id, symbol: "SH600519" })).total).toBe(2);
    expect(
      (await listTrades({ account_id: a.id, date_from: "2026-03-03", date_to: "2026-03-31" })).items.map(
        (t) => t.symbol,
      ),
    ).toEqual(["00700"]);
    expect((await listTrades({ symbol: "AAPL" })).items).toEqual([
      expect.objectContaining({ account_id: b.id, currency: "USD" }),
    ]);
    await expect(listTrades({ date_from: "2026-04-01", date_to: "2026-03-01" })).rejects.toMatchObject({ status: 400 });
    const page = await listTrades({ page: 2, page_size: 2 });
    expect(page).toMatchObject({ total: 4, page: 2, page_size: 2 });
    expect(page.items).toHaveLength(2);
  });

  it("an oversell (also one left by a delete) is 409 portfolio_oversell and stores nothing", async () => {
    const a = await createAccount({ name: "a" });
    const buy = await createTrade({
      account_id: a.id,
      symbol: "000001",
      trade_date: "2026-03-02",
      side: "buy",
      quantity: 100,
      price: 10,
    });
    await createTrade({
      account_id: a.id,
      symbol: "000001",
      trade_date: "2026-03-03",
      side: "sell",
      quantity: 100,
      price: 11,
    });
    await expect(
      createTrade({
        account_id: a.id,
        symbol: "000001",
        trade_date: "2026-03-04",
        side: "sell",
        quantity: 1,
        price: 11,
      }),
    ).rejects.toMatchObject({
      status: 409,
      code: "portfolio_oversell",
      extra: { symbol: "000001", held_quantity: 0 },
    });
    await expect(deleteTrade(buy.id)).rejects.toMatchObject({ code: "portfolio_oversell" });
    expect(await db().portfolioTrade.count()).toBe(2);
  });

  it("parallel sells of one holding never oversell: one is stored, the others are refused with a 409", async () => {
    const a = await createAccount({ name: "a" });
    await createTrade({
      account_id: a.id,
      symbol: "000001",
      trade_date: "2026-03-02",
      side: "buy",
      quantity: 100,
      price: 10,
    });
    const sells = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        createTrade({
          account_id: a.id,
          symbol: "000001",
          trade_date: "2026-03-03",
          side: "sell",
          quantity: 100,
          price: 11,
        }),
      ),
    );
    expect(sells.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of sells) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409 });
    expect(await db().portfolioTrade.count({ where: { side: "sell" } })).toBe(1);
    expect((await listPositions(a.id)).items).toEqual([]);
  }, 30_000);
});
