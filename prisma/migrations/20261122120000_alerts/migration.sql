-- CreateTable
CREATE TABLE "alert_rule" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "alert_type" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "parameters" TEXT NOT NULL,
    "severity" TEXT NOT NULL DEFAULT 'warning',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "cooldown_minutes" INTEGER NOT NULL DEFAULT 60,
    "armed" BOOLEAN NOT NULL DEFAULT true,
    "signal_cursor" INTEGER,
    "last_value" REAL,
    "last_checked_at" DATETIME,
    "last_triggered_at" DATETIME,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "alert_trigger" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "rule_id" INTEGER,
    "alert_type" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "observed_value" REAL,
    "threshold" REAL,
    "reason" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data_source" TEXT,
    "data_timestamp" TEXT,
    "status" TEXT NOT NULL,
    "diagnostics" TEXT,
    "triggered_at" DATETIME NOT NULL,
    CONSTRAINT "alert_trigger_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rule" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "alert_rule_enabled_idx" ON "alert_rule"("enabled");

-- CreateIndex
CREATE INDEX "alert_trigger_rule_id_triggered_at_idx" ON "alert_trigger"("rule_id", "triggered_at");

-- CreateIndex
CREATE INDEX "alert_trigger_target_triggered_at_idx" ON "alert_trigger"("target", "triggered_at");

-- CreateIndex
CREATE INDEX "alert_trigger_status_triggered_at_idx" ON "alert_trigger"("status", "triggered_at");

-- CreateIndex
CREATE INDEX "alert_trigger_triggered_at_idx" ON "alert_trigger"("triggered_at");
