import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { analyzePosition } from "./position-analysis";
import { createAccount, createTrade, deactivateAccount } from "./store";

withTempDatabase("portfolio-position-analysis", { MARKET_DATA_SOURCES: "sample" });

beforeEach(async () => {
  setClock(() => new Date("2026-11-20T04:00:00Z"));
  await db().analysisTask.deleteMany();
  await db().portfolioAccount.deleteMany();
});

describe("POST /portfolio/positions/{symbol}/analysis (docs/api.md §12.1.14)", () => {
  it("queues one analysis task of a held stock; a second while it runs is 409 duplicate_task with the existing id", async () => {
    const account = await createAccount({ name: "main" });
    await createTrade({
      account_id: account.id,
      symbol: "600519",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 100,
      price: 1400,
    });
    const accepted = await analyzePosition("sh600519", { analysis_phase: "postmarket" }, "trace-1");
    expect(accepted).toMatchObject({
      status: "pending",
      trace_id: "trace-1",
      analysis_phase: "postmarket",
      message: expect.stringContaining("600519"),
    });
    const task = await db().analysisTask.findUniqueOrThrow({ where: { id: accepted.task_id } });
    expect(task).toMatchObject({ kind: "analysis", stockCode: "600519", status: "pending", reportType: "detailed" });
    await expect(analyzePosition("600519", {}, "trace-2")).rejects.toMatchObject({
      status: 409,
      code: "duplicate_task",
      extra: { stock_code: "600519", existing_task_id: accepted.task_id },
    });
  });

  it("404 when not held (never bought, sold out, or only in an inactive account); 400 when held in two accounts without account_id", async () => {
    const a = await createAccount({ name: "a" });
    const b = await createAccount({ name: "b" });
    await expect(analyzePosition("600519", undefined, "t")).rejects.toMatchObject({ status: 404, code: "not_found" });
    await createTrade({
      account_id: a.id,
      symbol: "000001",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 100,
      price: 10,
    });
    await createTrade({
      account_id: a.id,
      symbol: "000001",
      trade_date: "2026-06-02",
      side: "sell",
      quantity: 100,
      price: 11,
    });
    await expect(analyzePosition("000001", undefined, "t")).rejects.toMatchObject({ status: 404 });

    await createTrade({
      account_id: a.id,
      symbol: "AAPL",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 1,
      price: 100,
    });
    await createTrade({
      account_id: b.id,
      symbol: "AAPL",
      trade_date: "2026-06-01",
      side: "buy",
      quantity: 1,
      price: 100,
    });
    await expect(analyzePosition("AAPL", undefined, "t")).rejects.toMatchObject({
      status: 400,
      code: "ambiguous_position_account",
    });
    expect((await analyzePosition("AAPL", { account_id: b.id }, "t")).status).toBe("pending");
    await db().analysisTask.deleteMany();
    await deactivateAccount(b.id);
    expect((await analyzePosition("AAPL", undefined, "t")).status).toBe("pending");
    await expect(analyzePosition("NOTACODE123", undefined, "t")).rejects.toMatchObject({ status: 400 });
  });
});
