-- CreateTable
CREATE TABLE "decision_signal" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "stock_code" TEXT NOT NULL,
    "stock_name" TEXT,
    "market" TEXT NOT NULL,
    "asset_type" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "source_type" TEXT NOT NULL,
    "source_agent" TEXT,
    "source_report_id" INTEGER,
    "trace_id" TEXT,
    "market_phase" TEXT,
    "trigger_source" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "action_label" TEXT,
    "confidence" REAL,
    "score" INTEGER,
    "horizon" TEXT NOT NULL,
    "entry_low" REAL,
    "entry_high" REAL,
    "stop_loss" REAL,
    "target_price" REAL,
    "invalidation" TEXT,
    "watch_conditions" TEXT,
    "reason" TEXT,
    "risk_summary" TEXT,
    "catalyst_summary" TEXT,
    "evidence" TEXT,
    "data_quality_summary" TEXT,
    "plan_quality" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "expires_at" DATETIME,
    "metadata" TEXT,
    "report_language" TEXT,
    "dedup_key" TEXT,
    "relaxed_key" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "decision_signal_outcome" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "signal_id" INTEGER NOT NULL,
    "horizon" TEXT NOT NULL,
    "engine_version" TEXT NOT NULL,
    "eval_status" TEXT NOT NULL,
    "retryable" BOOLEAN NOT NULL DEFAULT false,
    "outcome" TEXT,
    "direction_expected" TEXT,
    "direction_correct" BOOLEAN,
    "unable_reason" TEXT,
    "anchor_date" TEXT,
    "eval_window_days" INTEGER,
    "start_price" REAL,
    "end_date" TEXT,
    "end_close" REAL,
    "max_high" REAL,
    "min_low" REAL,
    "stock_return_pct" REAL,
    "max_favorable_excursion_pct" REAL,
    "max_adverse_excursion_pct" REAL,
    "entry_reachable" BOOLEAN,
    "first_hit" TEXT,
    "first_hit_date" TEXT,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "decision_signal_outcome_signal_id_fkey" FOREIGN KEY ("signal_id") REFERENCES "decision_signal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "decision_signal_feedback" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "signal_id" INTEGER NOT NULL,
    "feedback_value" TEXT NOT NULL,
    "reason_code" TEXT,
    "note" TEXT,
    "source" TEXT NOT NULL DEFAULT 'api',
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "decision_signal_feedback_signal_id_fkey" FOREIGN KEY ("signal_id") REFERENCES "decision_signal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "portfolio_account" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "market" TEXT,
    "currency" TEXT NOT NULL DEFAULT 'CNY',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "portfolio_position" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "account_id" INTEGER NOT NULL,
    "market" TEXT NOT NULL,
    "stock_code" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "quantity" REAL NOT NULL,
    "avg_cost" REAL,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "portfolio_position_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "portfolio_account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "decision_signal_dedup_key_key" ON "decision_signal"("dedup_key");

-- CreateIndex
CREATE INDEX "decision_signal_status_expires_at_idx" ON "decision_signal"("status", "expires_at");

-- CreateIndex
CREATE INDEX "decision_signal_target_key_status_created_at_idx" ON "decision_signal"("target_key", "status", "created_at");

-- CreateIndex
CREATE INDEX "decision_signal_created_at_idx" ON "decision_signal"("created_at");

-- CreateIndex
CREATE INDEX "decision_signal_relaxed_key_idx" ON "decision_signal"("relaxed_key");

-- CreateIndex
CREATE INDEX "decision_signal_source_report_id_idx" ON "decision_signal"("source_report_id");

-- CreateIndex
CREATE INDEX "decision_signal_trace_id_idx" ON "decision_signal"("trace_id");

-- CreateIndex
CREATE INDEX "decision_signal_outcome_engine_version_horizon_idx" ON "decision_signal_outcome"("engine_version", "horizon");

-- CreateIndex
CREATE UNIQUE INDEX "decision_signal_outcome_signal_id_horizon_engine_version_key" ON "decision_signal_outcome"("signal_id", "horizon", "engine_version");

-- CreateIndex
CREATE UNIQUE INDEX "decision_signal_feedback_signal_id_key" ON "decision_signal_feedback"("signal_id");

-- CreateIndex
CREATE INDEX "portfolio_position_target_key_idx" ON "portfolio_position"("target_key");

-- CreateIndex
CREATE UNIQUE INDEX "portfolio_position_account_id_target_key_key" ON "portfolio_position"("account_id", "target_key");
