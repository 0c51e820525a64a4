-- AlterTable
ALTER TABLE "analysis_history" ADD COLUMN "engine_version" TEXT;

-- AlterTable
ALTER TABLE "decision_signal" ADD COLUMN "decision_engine_version" TEXT;

-- CreateTable
CREATE TABLE "backtest_run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "trace_id" TEXT,
    "stock_code" TEXT NOT NULL,
    "stock_name" TEXT,
    "market" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "engine_version" TEXT NOT NULL,
    "data_source" TEXT,
    "requested_start" TEXT,
    "requested_end" TEXT,
    "start_date" TEXT,
    "end_date" TEXT,
    "last_bar_date" TEXT,
    "horizons" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "neutral_band_pct" REAL NOT NULL,
    "calls_total" INTEGER NOT NULL DEFAULT 0,
    "summary" TEXT,
    "series" TEXT,
    "created_at" DATETIME NOT NULL,
    "started_at" DATETIME,
    "completed_at" DATETIME
);

-- CreateTable
CREATE TABLE "backtest_call" (
    "backtest_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "date" TEXT NOT NULL,
    "close" REAL NOT NULL,
    "action" TEXT NOT NULL,
    "score" INTEGER,
    "ideal_buy" REAL,
    "stop_loss" REAL,
    "take_profit" REAL,
    "outcomes" TEXT NOT NULL,

    PRIMARY KEY ("backtest_id", "seq"),
    CONSTRAINT "backtest_call_backtest_id_fkey" FOREIGN KEY ("backtest_id") REFERENCES "backtest_run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "backtest_run_created_at_idx" ON "backtest_run"("created_at");

-- CreateIndex
CREATE INDEX "backtest_run_target_key_engine_version_status_completed_at_idx" ON "backtest_run"("target_key", "engine_version", "status", "completed_at");
