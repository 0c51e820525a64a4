import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { withSampleData } from "./fixtures/env-file";

// The Backtest page's "how my reports did" half. A stored report is moved back in time (its
// created_at and as-of date) so a 5-day window after it has bars; the page's button evaluates the reports
// and shows the API's figures.

withSampleData(0);

type Bars = { rows: (string | number | null)[][] };

function backdate(queryId: string, date: string): void {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, "e2e.db"));
  db.pragma("busy_timeout = 5000");
  try {
    db.prepare(
      "UPDATE analysis_history SET created_at = ?, context_snapshot = json_set(context_snapshot, '$.as_of.date', ?) WHERE query_id = ?",
    ).run(`${date}T08:00:00.000+00:00`, date, queryId);
  } finally {
    db.close();
  }
}

test("the Backtest page evaluates stored reports and shows how they did", async ({ page }) => {
  const made = await page.request.post("/api/v1/analysis/analyze", {
    data: { stock_code: "600519", async_mode: false },
  });
  expect(made.status()).toBe(200);
  const queryId = ((await made.json()) as { query_id: string }).query_id;
  const detail = (await (await page.request.get(`/api/v1/history/${queryId}`)).json()) as {
    meta: { id: number };
    details: { context_snapshot: { indicator_bars: Bars } };
  };
  const rows = detail.details.context_snapshot.indicator_bars.rows;
  backdate(queryId, String(rows[rows.length - 12]![0]));

  await page.goto("/backtest");
  const panel = page.getByTestId("report-eval");
  await expect(panel.getByRole("heading", { name: "我的报告表现" })).toBeVisible();
  await panel.getByLabel("评估窗口（交易日）").fill("5");
  const ran = page.waitForResponse((r) => r.url().endsWith("/api/v1/backtest/run") && r.request().method() === "POST");
  await panel.getByRole("button", { name: "评估报告" }).click();
  expect((await ran).status()).toBe(200);
  await expect(page.getByTestId("report-eval-message")).toContainText("已评估");
  await page.waitForURL("**/backtest?reports_window=5");

  // The row of the backdated report shows the API's move and outcome; the stats are the API's.
  const results = (await (await page.request.get("/api/v1/backtest/results?eval_window_days=5&limit=100")).json()) as {
    items: { analysis_history_id: number; stock_return_pct: number; outcome: string; eval_status: string }[];
  };
  const item = results.items.find((i) => i.analysis_history_id === detail.meta.id)!;
  expect(item.eval_status).toBe("completed");
  const row = page.locator(`[data-testid="report-eval-results"] tr[data-history-id="${detail.meta.id}"]`);
  const pct = `${item.stock_return_pct > 0 ? "+" : ""}${item.stock_return_pct.toFixed(2)}%`;
  await expect(row).toContainText(pct);
  await expect(row).toContainText({ win: "正确", loss: "错误", neutral: "中性" }[item.outcome]!);
  const perf = (await (await page.request.get("/api/v1/backtest/performance?eval_window_days=5")).json()) as {
    completed_count: number;
  };
  await expect(page.getByTestId("report-eval-stats").locator('[data-stat="completed"] dd')).toHaveText(
    String(perf.completed_count),
  );
});
