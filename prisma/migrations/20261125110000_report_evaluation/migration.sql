-- CreateTable
CREATE TABLE "report_evaluation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "analysis_history_id" INTEGER NOT NULL,
    "eval_window_days" INTEGER NOT NULL,
    "engine_version" TEXT NOT NULL,
    "eval_status" TEXT NOT NULL,
    "retryable" BOOLEAN NOT NULL,
    "unable_reason" TEXT,
    "stock_code" TEXT NOT NULL,
    "analysis_date" TEXT NOT NULL,
    "analysis_phase" TEXT NOT NULL,
    "action" TEXT,
    "direction_expected" TEXT,
    "position" TEXT NOT NULL,
    "anchor_date" TEXT,
    "start_price" REAL,
    "end_date" TEXT,
    "end_close" REAL,
    "max_high" REAL,
    "min_low" REAL,
    "stock_return_pct" REAL,
    "actual_movement" TEXT,
    "direction_correct" BOOLEAN,
    "outcome" TEXT,
    "stop_loss" REAL,
    "take_profit" REAL,
    "hit_stop_loss" BOOLEAN,
    "hit_take_profit" BOOLEAN,
    "first_hit" TEXT,
    "first_hit_date" TEXT,
    "first_hit_trading_days" INTEGER,
    "simulated_entry_price" REAL,
    "simulated_exit_price" REAL,
    "simulated_exit_reason" TEXT,
    "simulated_return_pct" REAL,
    "evaluated_at" DATETIME NOT NULL,
    CONSTRAINT "report_evaluation_analysis_history_id_fkey" FOREIGN KEY ("analysis_history_id") REFERENCES "analysis_history" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "report_evaluation_eval_window_days_engine_version_analysis_date_idx" ON "report_evaluation"("eval_window_days", "engine_version", "analysis_date");

-- CreateIndex
CREATE INDEX "report_evaluation_stock_code_eval_window_days_idx" ON "report_evaluation"("stock_code", "eval_window_days");

-- CreateIndex
CREATE UNIQUE INDEX "report_evaluation_analysis_history_id_eval_window_days_engine_version_key" ON "report_evaluation"("analysis_history_id", "eval_window_days", "engine_version");
