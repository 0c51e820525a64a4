import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import {
  createCashEntry,
  createCorporateAction,
  deleteCashEntry,
  deleteCorporateAction,
  listCashEntries,
  listCorporateActions,
} from "./events";
import { portfolioSnapshot } from "./snapshot";
import { createAccount, createTrade, listPositions } from "./store";

withTempDatabase("portfolio-events", { MARKET_DATA_SOURCES: "sample", PORTFOLIO_FX_RATES: "USD=7,HKD=0.9" });
const AS_OF = "2026-11-20";

beforeEach(async () => {
  setClock(() => new Date("2026-11-20T12:00:00Z"));
  await db().portfolioAccount.deleteMany();
});

describe("cash ledger and corporate actions in the snapshot (docs/api.md §12.1.11, §12.1.12)", () => {
  it("cash = ledger in − out − buys + sells − fees − taxes + dividends, in the account's base currency", async () => {
    const account = await createAccount({ name: "main", base_currency: "CNY" });
    await createCashEntry({ account_id: account.id, event_date: "2026-05-01", direction: "in", amount: 200_000 });
    await createCashEntry({
      account_id: account.id,
      event_date: "2026-05-02",
      direction: "in",
      amount: 1_000,
      currency: "usd",
    });
    await createCashEntry({
      account_id: account.id,
      event_date: "2026-09-01",
      direction: "out",
      amount: 5_000,
      note: "rent",
    });
    await createCashEntry({ account_id: account.id, event_date: "2026-12-01", direction: "in", amount: 99_999 }); // after as_of
    await createTrade({
      account_id: account.id,
      symbol: "600519",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 100,
      price: 1400,
      fee: 5,
      tax: 0,
    });
    await createTrade({
      account_id: account.id,
      symbol: "600519",
      trade_date: "2026-08-03",
      side: "sell",
      quantity: 50,
      price: 1500,
      fee: 5,
      tax: 75,
    });
    await createCorporateAction({
      account_id: account.id,
      symbol: "600519",
      effective_date: "2026-07-01",
      action_type: "cash_dividend",
      cash_dividend_per_share: 20,
    });
    await createCorporateAction({
      account_id: account.id,
      symbol: "600519",
      effective_date: "2026-10-01",
      action_type: "cash_dividend",
      cash_dividend_per_share: 10,
    });

    const snapshot = await portfolioSnapshot({ account_id: account.id, as_of: AS_OF, cost_method: "fifo" });
    // In: 200,000 + 1,000 USD × 7; out 5,000; buy −140,005; sell +75,000 − 80; dividends 100 × 20 + 50 × 10.
    const cash = 200_000 + 7_000 - 5_000 - 140_005 + 75_000 - 80 + 2_000 + 500;
    expect(snapshot.total_cash).toBeCloseTo(cash, 2);
    expect(snapshot.fee_total).toBe(10);
    expect(snapshot.tax_total).toBe(75);
    // Realized: 50 × (1500 − 80/50 − 1400.05) + dividends 2,500.
    expect(snapshot.realized_pnl).toBeCloseTo(50 * (1500 - 1.6 - 1400.05) + 2_500, 2);
    const early = await portfolioSnapshot({ account_id: account.id, as_of: "2026-06-30" });
    expect(early.total_cash).toBeCloseTo(200_000 + 7_000 - 140_005, 2);

    const page = await listCashEntries({ account_id: account.id, direction: "in", page_size: 2 });
    expect(page).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(page.items[0]).toMatchObject({ event_date: "2026-12-01", currency: "CNY" });
    expect(
      (await listCashEntries({ account_id: account.id, date_from: "2026-05-02", date_to: "2026-05-02" })).items,
    ).toEqual([expect.objectContaining({ currency: "USD", amount: 1_000 })]);
    expect(await deleteCashEntry(page.items[0]!.id)).toEqual({ deleted: 1 });
    await expect(deleteCashEntry(page.items[0]!.id)).rejects.toMatchObject({ status: 404, code: "not_found" });
  });

  it("a split multiplies the shares and divides the cost from its date; positions, sells and the cached holding follow", async () => {
    const account = await createAccount({ name: "split" });
    await createTrade({
      account_id: account.id,
      symbol: "000001",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 1000,
      price: 12,
      fee: 0,
    });
    // Selling 1,500 is only possible after the 2-for-1 split.
    await expect(
      createTrade({
        account_id: account.id,
        symbol: "000001",
        trade_date: "2026-08-03",
        side: "sell",
        quantity: 1500,
        price: 6.5,
      }),
    ).rejects.toMatchObject({ code: "portfolio_oversell" });
    const split = await createCorporateAction({
      account_id: account.id,
      symbol: "sz000001",
      effective_date: "2026-07-01",
      action_type: "split_adjustment",
      split_ratio: 2,
      note: "2-for-1",
    });
    expect(split).toMatchObject({
      symbol: "000001",
      market: "cn",
      currency: "CNY",
      split_ratio: 2,
      cash_dividend_per_share: null,
    });
    expect((await listPositions(account.id)).items[0]!.quantity).toBe(2000);
    await createTrade({
      account_id: account.id,
      symbol: "000001",
      trade_date: "2026-08-03",
      side: "sell",
      quantity: 1500,
      price: 6.5,
    });

    const snapshot = await portfolioSnapshot({ account_id: account.id, as_of: AS_OF, cost_method: "avg" });
    const position = snapshot.accounts[0]!.positions[0]!;
    expect(position).toMatchObject({ quantity: 500, avg_cost: 6 });
    expect(snapshot.realized_pnl).toBeCloseTo(1500 * 0.5, 6);
    const before = await portfolioSnapshot({ account_id: account.id, as_of: "2026-06-30" });
    expect(before.accounts[0]!.positions[0]).toMatchObject({ quantity: 1000, avg_cost: 12 });

    // Removing the split would leave the sell of 1,500 above the 1,000 held: refused, nothing changes.
    await expect(deleteCorporateAction(split.id)).rejects.toMatchObject({ status: 409, code: "portfolio_oversell" });
    expect((await listCorporateActions({ account_id: account.id, action_type: "split_adjustment" })).total).toBe(1);
    expect((await listCorporateActions({ symbol: "000001", date_from: "2026-07-02" })).total).toBe(0);
  });

  it("the type's amount is required; unknown accounts are 404", async () => {
    const account = await createAccount({ name: "x" });
    await expect(
      createCorporateAction({
        account_id: account.id,
        symbol: "600519",
        effective_date: "2026-07-01",
        action_type: "cash_dividend",
      }),
    ).rejects.toMatchObject({ status: 400, code: "validation_error" });
    await expect(
      createCorporateAction({
        account_id: account.id,
        symbol: "600519",
        effective_date: "2026-07-01",
        action_type: "split_adjustment",
        cash_dividend_per_share: 1,
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      createCashEntry({ account_id: account.id + 99, event_date: "2026-07-01", direction: "in", amount: 1 }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
