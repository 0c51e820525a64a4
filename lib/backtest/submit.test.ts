import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { testDatabaseKind, withTempDatabase } from "@/tests/kits/db/temp-database";
import { ZBacktestRequest } from "./schemas";
import { submitBacktest } from "./submit";

// POST /backtests stores the run and queues its task in one transaction: both or neither.

withTempDatabase("backtest-submit");

const request = ZBacktestRequest.parse({ stock_code: "600519" });

describe("backtest submission", () => {
  it("stores a pending run and its pending task under one id", async () => {
    const accepted = await submitBacktest(request, "trace-submit-1");
    expect(accepted).toMatchObject({ status: "pending" });
    const run = await db().backtestRun.findUnique({ where: { id: accepted.backtest_id } });
    const task = await db().analysisTask.findUnique({ where: { id: accepted.backtest_id } });
    expect(run).toMatchObject({ status: "pending", stockCode: "600519" });
    expect(task).toMatchObject({ kind: "backtest", status: "pending", activeKey: `backtest:${accepted.backtest_id}` });
  });

  it("a task that cannot be queued leaves no run behind", async () => {
    const runsBefore = await db().backtestRun.count();
    // The database refuses every new backtest task, as a full disk or a lost connection would at that moment.
    if (testDatabaseKind() === "sqlite") {
      await db().$executeRawUnsafe(
        "CREATE TRIGGER refuse_backtest_task BEFORE INSERT ON analysis_task WHEN NEW.kind = 'backtest' BEGIN SELECT RAISE(ABORT, 'refused'); END",
      );
    } else {
      await db().$executeRawUnsafe(
        "CREATE FUNCTION refuse_backtest_task() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql",
      );
      await db().$executeRawUnsafe(
        "CREATE TRIGGER refuse_backtest_task BEFORE INSERT ON analysis_task FOR EACH ROW WHEN (NEW.kind = 'backtest') EXECUTE FUNCTION refuse_backtest_task()",
      );
    }
    try {
      await expect(submitBacktest(request, "trace-submit-2")).rejects.toThrow();
      expect(await db().backtestRun.count()).toBe(runsBefore);
    } finally {
      await db().$executeRawUnsafe(
        testDatabaseKind() === "sqlite"
          ? "DROP TRIGGER refuse_backtest_task"
          : "DROP TRIGGER refuse_backtest_task ON analysis_task",
      );
    }
  });
});
