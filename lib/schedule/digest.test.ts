import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { settleNotifications } from "@/lib/notify";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { registerAnalysisTasks } from "@/lib/analysis/task-runner";
import { runTask } from "@/lib/tasks/run-task";
import { sendDueDigests } from "./digest";
import { runNow } from "./run-watchlist";
import type { TScheduledRun } from "./schemas";
import { schedulerStatus } from "./status";

// The merged report of a scheduled run: due only when every analysis of the run has finished, sent once, with
// each stock's line and link in watchlist order; a failed analysis is listed with its reason.

let receiver: Receiver;
beforeAll(async () => {
  registerAnalysisTasks();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const base = () => ({
  MARKET_DATA_SOURCES: "sample",
  STOCK_LIST: "600519,AAPL,000001",
  MARKET_REVIEW_ENABLED: "false",
  TRADING_DAY_CHECK_ENABLED: "false",
  CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/hook`,
  // The receiver listens on 127.0.0.1, which the outbound policy refuses by default.
  OUTBOUND_ALLOW_PRIVATE: "true",
  PUBLIC_BASE_URL: "https://dsa.example.com",
  NOTIFICATION_RETRY_BASE_DELAY_MS: "1",
});
const temp = withTempDatabase("digest");

afterEach(async () => {
  await settleNotifications();
  receiver.requests.length = 0;
  await db().analysisTask.deleteMany({});
  await db().scheduledRun.deleteMany({});
  await db().analysisHistory.deleteMany({});
});

/** Runs one queued task with the real pipeline (sample data) and marks it as the worker pool would. */
async function work(taskId: string, fail = false): Promise<void> {
  const row = await db().analysisTask.findUniqueOrThrow({ where: { id: taskId } });
  if (fail) {
    await db().analysisTask.update({
      where: { id: taskId },
      data: { status: "failed", error: "no market data for 000001", activeKey: null },
    });
    return;
  }
  await runTask(row, { signal: new AbortController().signal, onProgress: () => {} });
  await db().analysisTask.update({ where: { id: taskId }, data: { status: "completed", activeKey: null } });
}

async function digestOf(runId: number): Promise<TScheduledRun["digest"]> {
  return (await schedulerStatus(10)).recent_runs.find((r) => r.id === runId)!.digest;
}

describe("watchlist digest", () => {
  it("waits for every analysis, then sends one merged message in watchlist order with links; never twice", async () => {
    temp.useSettings(base());
    const run = await runNow();
    expect(run.digest).toBe("pending");
    const [moutai, apple, pingan] = run.accepted.map((a) => a.task_id);
    // Per-stock notifications are off: the tasks carry notify=false.
    expect(JSON.parse((await db().analysisTask.findUniqueOrThrow({ where: { id: moutai! } })).request)).toMatchObject({
      notify: false,
    });

    await work(moutai!);
    await work(apple!);
    await sendDueDigests();
    expect(receiver.requests).toHaveLength(0);
    expect(await digestOf(run.id)).toBe("pending");

    await work(pingan!, true);
    await Promise.all([sendDueDigests(), sendDueDigests(), sendDueDigests()]);
    expect(receiver.requests).toHaveLength(1);
    expect(await digestOf(run.id)).toBe("sent");

    const hook = receiver.requests[0]!.json as { kind: string; title: string; content: string; link: string };
    expect(hook.kind).toBe("report");
    expect(hook.title).toMatch(/^自选股日报 \d{4}-\d{2}-\d{2} · 3 只$/);
    expect(hook.link).toBe("https://dsa.example.com/history");
    const records = await db().analysisHistory.findMany({ orderBy: { id: "asc" } });
    const lines = hook.content.split("\n");
    expect(lines[0]).toMatch(
      new RegExp(
        `^- \\*\\*\\[贵州茅台 \\(600519\\)\\]\\(https://dsa\\.example\\.com/history/${records[0]!.id}\\)\\*\\* `,
      ),
    );
    expect(lines.find((l) => l.includes("(AAPL)"))).toContain(`/history/${records[1]!.id})`);
    // Each price says its source and date.
    expect(lines[0]).toMatch(/\d (\([+-]?[\d.]+%\) )?· sample · \d{4}-\d{2}-\d{2} (收盘|实时)/);
    expect(hook.content.indexOf("600519")).toBeLessThan(hook.content.indexOf("AAPL"));
    expect(hook.content).toContain("- **平安银行 (000001)** 分析失败: no market data for 000001");
    expect(hook.content).toContain("  - 操作: ");
    expect(hook.content).toContain("含样例数据");

    await sendDueDigests();
    expect(receiver.requests).toHaveLength(1);
  });

  it("REPORT_SUMMARY_ONLY keeps one line per stock; SINGLE_STOCK_NOTIFY sends each report instead of a digest", async () => {
    temp.useSettings({ ...base(), STOCK_LIST: "600519,AAPL", REPORT_SUMMARY_ONLY: "true" });
    const run = await runNow();
    for (const a of run.accepted) await work(a.task_id);
    await sendDueDigests();
    const content = (receiver.requests[0]!.json as { content: string }).content;
    expect(content.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(2);
    expect(content).not.toContain("操作:");

    receiver.requests.length = 0;
    await db().analysisTask.deleteMany({});
    temp.useSettings({ ...base(), STOCK_LIST: "600519,AAPL", SINGLE_STOCK_NOTIFY: "true" });
    const single = await runNow();
    expect(single.digest).toBeNull();
    for (const a of single.accepted) await work(a.task_id);
    await settleNotifications();
    await sendDueDigests();
    // runTask sends each stock's own report; there is no digest.
    expect(receiver.requests.map((r) => (r.json as { related_kind: string }).related_kind)).toEqual([
      "analysis",
      "analysis",
    ]);
  });
});
