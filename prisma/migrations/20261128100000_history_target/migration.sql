-- RedefineTables: analysis_history with the list columns (created_at, engine_version included) ahead of the
-- report bodies. SQLite stores a row's columns in order and a large report spills into overflow pages, so a
-- list read of a column placed after report_json walked that record's whole overflow chain (about 30 kB per
-- record in the history-list bench). The ids and their sequence are kept.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_analysis_history" (
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
    "current_price" REAL,
    "change_pct" REAL,
    "volume_ratio" REAL,
    "turnover_rate" REAL,
    "model_used" TEXT,
    "engine_version" TEXT,
    "data_source" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "analysis_summary" TEXT,
    "market_phase_summary" TEXT,
    "report_json" TEXT NOT NULL,
    "raw_result" TEXT,
    "context_snapshot" TEXT,
    "diagnostics" TEXT,
    "flow" TEXT
);
INSERT INTO "new_analysis_history" ("id", "query_id", "trace_id", "stock_code", "display_code", "stock_name", "market", "asset_type", "target_key", "report_type", "report_language", "region", "analysis_phase", "sentiment_score", "trend_prediction", "operation_advice", "action", "current_price", "change_pct", "volume_ratio", "turnover_rate", "model_used", "engine_version", "data_source", "created_at", "analysis_summary", "market_phase_summary", "report_json", "raw_result", "context_snapshot", "diagnostics", "flow") SELECT "id", "query_id", "trace_id", "stock_code", "display_code", "stock_name", "market", "asset_type", "target_key", "report_type", "report_language", "region", "analysis_phase", "sentiment_score", "trend_prediction", "operation_advice", "action", "current_price", "change_pct", "volume_ratio", "turnover_rate", "model_used", "engine_version", "data_source", "created_at", "analysis_summary", "market_phase_summary", "report_json", "raw_result", "context_snapshot", "diagnostics", "flow" FROM "analysis_history";
INSERT INTO "sqlite_sequence" ("name", "seq") SELECT 'new_analysis_history', "seq" FROM "sqlite_sequence" WHERE "name" = 'analysis_history'
    AND NOT EXISTS (SELECT 1 FROM "sqlite_sequence" WHERE "name" = 'new_analysis_history');
UPDATE "sqlite_sequence" SET "seq" = MAX("seq", (SELECT "seq" FROM "sqlite_sequence" WHERE "name" = 'analysis_history')) WHERE "name" = 'new_analysis_history'
    AND EXISTS (SELECT 1 FROM "sqlite_sequence" WHERE "name" = 'analysis_history');
DROP TABLE "analysis_history";
ALTER TABLE "new_analysis_history" RENAME TO "analysis_history";
CREATE UNIQUE INDEX "analysis_history_query_id_key" ON "analysis_history"("query_id");
CREATE INDEX "analysis_history_stock_code_id_idx" ON "analysis_history"("stock_code", "id");
CREATE INDEX "analysis_history_target_key_id_idx" ON "analysis_history"("target_key", "id");
CREATE INDEX "analysis_history_created_at_idx" ON "analysis_history"("created_at");
CREATE INDEX "analysis_history_report_type_created_at_idx" ON "analysis_history"("report_type", "created_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateTable
CREATE TABLE "history_target" (
    "target_key" TEXT NOT NULL PRIMARY KEY,
    "latest_id" INTEGER NOT NULL,
    "record_count" INTEGER NOT NULL
);

-- CreateIndex
CREATE INDEX "history_target_latest_id_idx" ON "history_target"("latest_id");

-- One row per target of analysis_history, kept by these triggers on every write path (Prisma, raw SQL,
-- bulk deletes). A delete recomputes the latest id only when it removed the latest record. A target whose
-- records are all gone keeps its row with a count of 0 (readers skip it): one statement per deleted record.
CREATE TRIGGER "history_target_insert" AFTER INSERT ON "analysis_history" BEGIN
    INSERT INTO "history_target" ("target_key", "latest_id", "record_count") VALUES (NEW."target_key", NEW."id", 1)
    ON CONFLICT ("target_key") DO UPDATE SET "latest_id" = MAX("latest_id", excluded."latest_id"), "record_count" = "record_count" + 1;
END;

CREATE TRIGGER "history_target_delete" AFTER DELETE ON "analysis_history" BEGIN
    UPDATE "history_target" SET
        "record_count" = "record_count" - 1,
        "latest_id" = CASE WHEN "latest_id" > OLD."id" THEN "latest_id"
            ELSE COALESCE((SELECT MAX("id") FROM "analysis_history" WHERE "target_key" = OLD."target_key"), 0) END
    WHERE "target_key" = OLD."target_key";
END;

CREATE TRIGGER "history_target_retarget" AFTER UPDATE OF "target_key" ON "analysis_history"
WHEN OLD."target_key" IS NOT NEW."target_key" BEGIN
    UPDATE "history_target" SET
        "record_count" = "record_count" - 1,
        "latest_id" = CASE WHEN "latest_id" > OLD."id" THEN "latest_id"
            ELSE COALESCE((SELECT MAX("id") FROM "analysis_history" WHERE "target_key" = OLD."target_key"), 0) END
    WHERE "target_key" = OLD."target_key";
    INSERT INTO "history_target" ("target_key", "latest_id", "record_count") VALUES (NEW."target_key", NEW."id", 1)
    ON CONFLICT ("target_key") DO UPDATE SET "latest_id" = MAX("latest_id", excluded."latest_id"), "record_count" = "record_count" + 1;
END;

-- The records stored before this migration.
INSERT INTO "history_target" ("target_key", "latest_id", "record_count")
SELECT "target_key", MAX("id"), COUNT(*) FROM "analysis_history" GROUP BY "target_key";
