-- CreateTable
CREATE TABLE "analysis_history" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "query_id" TEXT NOT NULL,
    "trace_id" TEXT,
    "stock_code" TEXT NOT NULL,
    "display_code" TEXT NOT NULL,
    "stock_name" TEXT,
    "market" TEXT NOT NULL,
    "asset_type" TEXT,
    "target_key" TEXT NOT NULL,
    "report_type" TEXT NOT NULL,
    "report_language" TEXT NOT NULL,
    "region" TEXT,
    "analysis_phase" TEXT,
    "sentiment_score" INTEGER,
    "trend_prediction" TEXT,
    "operation_advice" TEXT,
    "action" TEXT,
    "analysis_summary" TEXT,
    "current_price" REAL,
    "change_pct" REAL,
    "volume_ratio" REAL,
    "turnover_rate" REAL,
    "model_used" TEXT,
    "data_source" TEXT,
    "market_phase_summary" TEXT,
    "report_json" TEXT NOT NULL,
    "raw_result" TEXT,
    "context_snapshot" TEXT,
    "diagnostics" TEXT,
    "flow" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "analysis_news" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "history_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "snippet" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "source" TEXT,
    "published_at" TEXT,
    CONSTRAINT "analysis_news_history_id_fkey" FOREIGN KEY ("history_id") REFERENCES "analysis_history" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "llm_usage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "called_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "call_type" TEXT NOT NULL,
    "channel" TEXT,
    "model" TEXT NOT NULL,
    "stock_code" TEXT,
    "query_id" TEXT,
    "prompt_tokens" INTEGER NOT NULL,
    "completion_tokens" INTEGER NOT NULL,
    "total_tokens" INTEGER NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "success" BOOLEAN NOT NULL,
    "error" TEXT
);

-- CreateIndex
CREATE UNIQUE INDEX "analysis_history_query_id_key" ON "analysis_history"("query_id");

-- CreateIndex
CREATE INDEX "analysis_history_stock_code_id_idx" ON "analysis_history"("stock_code", "id");

-- CreateIndex
CREATE INDEX "analysis_history_target_key_id_idx" ON "analysis_history"("target_key", "id");

-- CreateIndex
CREATE INDEX "analysis_history_created_at_idx" ON "analysis_history"("created_at");

-- CreateIndex
CREATE INDEX "analysis_history_report_type_created_at_idx" ON "analysis_history"("report_type", "created_at");

-- CreateIndex
CREATE INDEX "analysis_news_history_id_position_idx" ON "analysis_news"("history_id", "position");

-- CreateIndex
CREATE INDEX "llm_usage_called_at_idx" ON "llm_usage"("called_at");

-- CreateIndex
CREATE INDEX "llm_usage_model_called_at_idx" ON "llm_usage"("model", "called_at");
