-- CreateTable
CREATE TABLE "analysis_task" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "trace_id" TEXT,
    "kind" TEXT NOT NULL,
    "stock_code" TEXT NOT NULL,
    "stock_name" TEXT,
    "market" TEXT,
    "asset_type" TEXT,
    "active_key" TEXT,
    "request" TEXT NOT NULL,
    "original_query" TEXT,
    "selection_source" TEXT,
    "report_type" TEXT,
    "analysis_phase" TEXT,
    "skills" TEXT,
    "region" TEXT,
    "status" TEXT NOT NULL,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "message" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_owner" TEXT,
    "lease_until" DATETIME,
    "created_at" DATETIME NOT NULL,
    "started_at" DATETIME,
    "completed_at" DATETIME
);

-- CreateIndex
CREATE UNIQUE INDEX "analysis_task_active_key_key" ON "analysis_task"("active_key");

-- CreateIndex
CREATE INDEX "analysis_task_status_created_at_idx" ON "analysis_task"("status", "created_at");

-- CreateIndex
CREATE INDEX "analysis_task_created_at_idx" ON "analysis_task"("created_at");

-- CreateIndex
CREATE INDEX "analysis_task_completed_at_idx" ON "analysis_task"("completed_at");
