import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../setup/api-server";
import { openServerDatabase } from "../../setup/server-database";
import { expectKeys, loginCookie, referenceClient, type Call, type Wire } from "./reference-client";

// docs/api.md §12.4: the reference's /api/v1/backtest pages against DSA, on sample data. Two stored reports are
// moved back in time (their created_at and as-of date) so a 5-day window after them has bars; the test checks
// the evaluation against the bars the report itself stored.

const WINDOW = 5;
const ITEM_KEYS = [
  "analysis_history_id",
  "code",
  "stock_name",
  "analysis_date",
  "eval_window_days",
  "engine_version",
  "eval_status",
  "evaluated_at",
  "operation_advice",
  "action",
  "action_label",
  "trend_prediction",
  "market_phase",
  "market_phase_summary",
  "position_recommendation",
  "start_price",
  "end_close",
  "max_high",
  "min_low",
  "stock_return_pct",
  "actual_return_pct",
  "actual_movement",
  "direction_expected",
  "direction_correct",
  "outcome",
  "stop_loss",
  "take_profit",
  "hit_stop_loss",
  "hit_take_profit",
  "first_hit",
  "first_hit_date",
  "first_hit_trading_days",
  "simulated_entry_price",
  "simulated_exit_price",
  "simulated_exit_reason",
  "simulated_return_pct",
];
const PERF_KEYS = [
  "scope",
  "code",
  "eval_window_days",
  "engine_version",
  "computed_at",
  "total_evaluations",
  "completed_count",
  "insufficient_count",
  "long_count",
  "cash_count",
  "win_count",
  "loss_count",
  "neutral_count",
  "direction_accuracy_pct",
  "win_rate_pct",
  "neutral_rate_pct",
  "avg_stock_return_pct",
  "avg_simulated_return_pct",
  "stop_loss_trigger_rate",
  "take_profit_trigger_rate",
  "ambiguous_rate",
  "avg_days_to_first_hit",
  "advice_breakdown",
  "diagnostics",
];

type Bars = { columns: string[]; rows: (string | number | null)[][] };

/** Analyses `code`, then moves the stored report back to the bar `back` rows before its last one. */
async function pastReport(
  call: Call,
  server: TestServer,
  code: string,
  back: number,
): Promise<{
  id: number;
  anchor: string;
  window: (string | number | null)[][];
  anchorRow: (string | number | null)[];
}> {
  const made = await call("POST", "/api/v1/analysis/analyze", { stock_code: code, async_mode: false });
  expect(made.status).toBe(200);
  const detail = (await call("GET", `/api/v1/history/${made.body.query_id}`)).body;
  const bars = detail.details.context_snapshot.indicator_bars as Bars;
  const anchorRow = bars.rows[bars.rows.length - 1 - back]!;
  const anchor = String(anchorRow[0]);
  const database = await openServerDatabase(server);
  try {
    // context_snapshot is JSON text on both databases: its as-of date is set here rather than with SQLite's json_set.
    // The instant is UTC with an explicit offset, as Prisma's SQLite adapter writes it; PostgreSQL's timestamp (UTC,
    // without zone) takes the same text.
    const row = await database.get<{ snapshot: string }>(
      "SELECT context_snapshot AS snapshot FROM analysis_history WHERE query_id = ?",
      made.body.query_id,
    );
    const snapshot = JSON.parse(row!.snapshot) as { as_of: { date: string } };
    snapshot.as_of.date = anchor;
    await database.run(
      "UPDATE analysis_history SET created_at = ?, context_snapshot = ? WHERE query_id = ?",
      `${anchor}T08:00:00.000+00:00`,
      JSON.stringify(snapshot),
      made.body.query_id,
    );
  } finally {
    await database.close();
  }
  const start = bars.rows.length - back;
  return { id: detail.meta.id, anchor, anchorRow, window: bars.rows.slice(start, start + WINDOW) };
}

function suite(mode: "auth off" | "auth on") {
  describe(`§12.4 report backtest with ${mode}`, () => {
    let server: TestServer;
    let call: Call;

    beforeAll(async () => {
      server = await startTestServer({
        MARKET_DATA_SOURCES: "sample",
        ...(mode === "auth on" ? { ADMIN_AUTH_ENABLED: "true" } : {}),
      });
      call = referenceClient(server.baseUrl, mode === "auth on" ? await loginCookie(server.baseUrl) : undefined);
    });
    afterAll(() => server?.stop());

    it("GET /performance before any run is 404 (the client shows its empty card, no banner)", async () => {
      const res = await call("GET", "/api/v1/backtest/performance");
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found" });
      expect((await call("GET", "/api/v1/backtest/performance/600519")).status).toBe(404);
    });

    it("run → results → performance, figures traceable to the bars the report stored", async () => {
      const moutai = await pastReport(call, server, "600519", 12);
      const apple = await pastReport(call, server, "AAPL", 15);
      // A fresh report stays too recent for the window.
      await call("POST", "/api/v1/analysis/analyze", { stock_code: "00700", async_mode: false });

      const run = await call("POST", "/api/v1/backtest/run", {
        eval_window_days: WINDOW,
        min_age_days: 0,
        force: true,
      });
      expect(run.status).toBe(200);
      expectKeys(run.body, ["processed", "saved", "completed", "insufficient", "errors"]);
      expect(run.body).toMatchObject({ processed: 3, saved: 3, completed: 2, insufficient: 1, errors: 0 });

      // Without force, completed rows are kept and only the insufficient one is tried again.
      expect((await call("POST", "/api/v1/backtest/run", { eval_window_days: WINDOW })).body).toMatchObject({
        processed: 1,
        insufficient: 1,
      });

      const results = await call("GET", `/api/v1/backtest/results?page=1&limit=20&eval_window_days=${WINDOW}`);
      expect(results.status).toBe(200);
      expect(results.body).toMatchObject({ total: 3, page: 1, limit: 20 });
      for (const item of results.body.items) expectKeys(item, ITEM_KEYS);
      for (const report of [moutai, apple]) {
        const item = results.body.items.find((i: Wire) => i.analysis_history_id === report.id);
        const close = (row: (string | number | null)[]) => Number(row[4]);
        expect(item).toMatchObject({
          eval_status: "completed",
          analysis_date: report.anchor,
          start_price: close(report.anchorRow),
          end_close: close(report.window.at(-1)!),
        });
        expect(item.max_high).toBe(Math.max(...report.window.map((r) => Number(r[2]))));
        expect(item.min_low).toBe(Math.min(...report.window.map((r) => Number(r[3]))));
        expect(item.stock_return_pct).toBeCloseTo(
          (close(report.window.at(-1)!) / close(report.anchorRow) - 1) * 100,
          9,
        );
        expect(item.actual_return_pct).toBe(item.stock_return_pct);
        expect(["win", "loss", "neutral"]).toContain(item.outcome);
        expect(["long", "cash"]).toContain(item.position_recommendation);
        if (item.position_recommendation === "cash") expect(item.simulated_return_pct).toBe(0);
      }
      // The reference's words for what a report expected (its client prints them): never empty, never not_up.
      const words: Record<string, string> = { buy: "up", add: "up", hold: "not_down", reduce: "down", sell: "down" };
      for (const item of results.body.items) {
        expect(item.direction_expected, item.action).toBe(
          words[item.action] ?? (item.action === "avoid" ? "down" : "flat"),
        );
        if (item.eval_status !== "completed") continue;
        const r = item.stock_return_pct;
        const graded =
          item.direction_expected === "flat"
            ? Math.abs(r) <= 2
            : item.direction_expected === "down"
              ? r <= -2
                ? true
                : r >= 2
                  ? false
                  : null
              : item.direction_correct;
        expect(item.direction_correct).toBe(graded);
      }
      const filtered = await call(
        "GET",
        `/api/v1/backtest/results?code=AAPL&analysis_date_from=${apple.anchor}&analysis_date_to=${apple.anchor}`,
      );
      expect(filtered.body.items.map((i: Wire) => i.code)).toEqual(["AAPL"]);

      const perf = await call("GET", "/api/v1/backtest/performance");
      expect(perf.status).toBe(200);
      expectKeys(perf.body, PERF_KEYS);
      expect(perf.body).toMatchObject({
        scope: "overall",
        eval_window_days: WINDOW,
        total_evaluations: 3,
        completed_count: 2,
        insufficient_count: 1,
      });
      expect(perf.body.win_count + perf.body.loss_count + perf.body.neutral_count).toBe(2);
      const completed = results.body.items.filter((i: Wire) => i.eval_status === "completed");
      const mean = completed.reduce((s: number, i: Wire) => s + i.stock_return_pct, 0) / completed.length;
      expect(perf.body.avg_stock_return_pct).toBeCloseTo(mean, 9);
      const phases = perf.body.diagnostics.phase_breakdown;
      expect(phases.premarket + phases.intraday + phases.postmarket + phases.unknown).toBe(3);

      const stock = await call("GET", "/api/v1/backtest/performance/600519.SH");
      expect(stock.body).toMatchObject({ scope: "stock", code: "600519", total_evaluations: 1, completed_count: 1 });
    });

    it("bad input is 422 with the validation envelope", async () => {
      expect((await call("POST", "/api/v1/backtest/run", { eval_window_days: 0 })).status).toBe(422);
      const res = await call("GET", "/api/v1/backtest/results?analysis_phase=lunch");
      expect(res.status).toBe(422);
      expect(res.body.error).toBe("validation_error");
    });
  });
}

suite("auth off");
suite("auth on");
