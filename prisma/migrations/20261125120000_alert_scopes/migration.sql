-- AlterTable
ALTER TABLE "alert_trigger" ADD COLUMN "target_scope" TEXT;

-- CreateTable
CREATE TABLE "alert_target_state" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "rule_id" INTEGER NOT NULL,
    "target" TEXT NOT NULL,
    "armed" BOOLEAN NOT NULL DEFAULT true,
    "last_value" REAL,
    "last_status" TEXT,
    "last_checked_at" DATETIME,
    "last_triggered_at" DATETIME,
    "memo" TEXT,
    CONSTRAINT "alert_target_state_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rule" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Each existing rule's crossing state becomes the state of its one target.
INSERT INTO "alert_target_state" ("rule_id", "target", "armed", "last_value", "last_checked_at", "last_triggered_at")
SELECT "id", "target", "armed", "last_value", "last_checked_at", "last_triggered_at" FROM "alert_rule";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_alert_rule" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "alert_type" TEXT NOT NULL,
    "target_scope" TEXT NOT NULL DEFAULT 'single_symbol',
    "target" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "parameters" TEXT NOT NULL,
    "severity" TEXT NOT NULL DEFAULT 'warning',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "source" TEXT NOT NULL DEFAULT 'api',
    "cooldown_seconds" INTEGER NOT NULL DEFAULT 3600,
    "notification_policy" TEXT,
    "signal_cursor" INTEGER,
    "last_triggered_at" DATETIME,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
-- Existing rules in the new shape (nothing stored is lost): price_above/price_below become price_cross with a
-- direction, change_pct_beyond becomes price_change_percent "up" (its "down" half is added below),
-- volume_ratio_above becomes volume_spike (the same volume ratio, as multiplier); the cooldown moves to seconds.
INSERT INTO "new_alert_rule" ("id", "name", "alert_type", "target_scope", "target", "target_key", "parameters", "severity", "enabled", "source", "cooldown_seconds", "signal_cursor", "last_triggered_at", "created_at", "updated_at")
SELECT "id",
       CASE "alert_type" WHEN 'change_pct_beyond' THEN "name" || ' ↑' ELSE "name" END,
       CASE "alert_type"
         WHEN 'price_above' THEN 'price_cross'
         WHEN 'price_below' THEN 'price_cross'
         WHEN 'change_pct_beyond' THEN 'price_change_percent'
         WHEN 'volume_ratio_above' THEN 'volume_spike'
         ELSE "alert_type" END,
       'single_symbol', "target", "target_key",
       CASE "alert_type"
         WHEN 'price_above' THEN json_object('direction', 'above', 'price', json_extract("parameters", '$.price'))
         WHEN 'price_below' THEN json_object('direction', 'below', 'price', json_extract("parameters", '$.price'))
         WHEN 'change_pct_beyond' THEN json_object('direction', 'up', 'change_pct', json_extract("parameters", '$.change_pct'))
         WHEN 'volume_ratio_above' THEN json_object('multiplier', json_extract("parameters", '$.ratio'))
         ELSE "parameters" END,
       "severity", "enabled", 'api', "cooldown_minutes" * 60, "signal_cursor", "last_triggered_at", "created_at", "updated_at"
FROM "alert_rule";
DROP TABLE "alert_rule";
ALTER TABLE "new_alert_rule" RENAME TO "alert_rule";
CREATE INDEX "alert_rule_enabled_idx" ON "alert_rule"("enabled");
CREATE INDEX "alert_rule_alert_type_idx" ON "alert_rule"("alert_type");
CREATE INDEX "alert_rule_target_scope_target_idx" ON "alert_rule"("target_scope", "target");
CREATE INDEX "alert_rule_source_idx" ON "alert_rule"("source");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "alert_target_state_rule_id_target_key" ON "alert_target_state"("rule_id", "target");

-- The "down" half of each former change_pct_beyond rule (|daily change| at least x = up x or down x).
INSERT INTO "alert_rule" ("name", "alert_type", "target_scope", "target", "target_key", "parameters", "severity", "enabled", "source", "cooldown_seconds", "last_triggered_at", "created_at", "updated_at")
SELECT substr("name", 1, length("name") - 2) || ' ↓', "alert_type", "target_scope", "target", "target_key",
       json_object('direction', 'down', 'change_pct', json_extract("parameters", '$.change_pct')),
       "severity", "enabled", "source", "cooldown_seconds", "last_triggered_at", "created_at", "updated_at"
FROM "alert_rule"
WHERE "alert_type" = 'price_change_percent' AND json_extract("parameters", '$.direction') = 'up' AND "name" LIKE '% ↑';

-- Stored triggers: the new type names; a firing is "triggered" and its delivery outcome moves to diagnostics.
UPDATE "alert_trigger" SET "alert_type" = CASE "alert_type"
    WHEN 'price_above' THEN 'price_cross'
    WHEN 'price_below' THEN 'price_cross'
    WHEN 'change_pct_beyond' THEN 'price_change_percent'
    WHEN 'volume_ratio_above' THEN 'volume_spike'
    ELSE "alert_type" END,
  "target_scope" = 'single_symbol';
UPDATE "alert_trigger"
SET "diagnostics" = json_set(CASE WHEN json_valid("diagnostics") THEN "diagnostics" ELSE '{}' END, '$.delivery_status', "status"),
    "status" = 'triggered'
WHERE "status" IN ('sent', 'failed', 'suppressed');
