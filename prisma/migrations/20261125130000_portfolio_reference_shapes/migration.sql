-- AlterTable
ALTER TABLE "portfolio_account" ADD COLUMN "broker" TEXT;
ALTER TABLE "portfolio_account" ADD COLUMN "owner_id" TEXT;
ALTER TABLE "portfolio_account" ADD COLUMN "updated_at" DATETIME;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_portfolio_trade" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "account_id" INTEGER NOT NULL,
    "side" TEXT NOT NULL,
    "stock_code" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "quantity" REAL NOT NULL,
    "price" REAL NOT NULL,
    "fee" REAL NOT NULL DEFAULT 0,
    "trade_date" TEXT NOT NULL,
    "note" TEXT,
    "source" TEXT NOT NULL DEFAULT 'manual',
    "created_at" DATETIME NOT NULL,
    "tax" REAL NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL DEFAULT 'CNY',
    "trade_uid" TEXT,
    "dedup_hash" TEXT,
    CONSTRAINT "portfolio_trade_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "portfolio_account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_portfolio_trade" ("account_id", "created_at", "fee", "id", "market", "note", "price", "quantity", "side", "source", "stock_code", "target_key", "trade_date") SELECT "account_id", "created_at", "fee", "id", "market", "note", "price", "quantity", "side", "source", "stock_code", "target_key", "trade_date" FROM "portfolio_trade";
DROP TABLE "portfolio_trade";
ALTER TABLE "new_portfolio_trade" RENAME TO "portfolio_trade";
CREATE INDEX "portfolio_trade_account_id_trade_date_id_idx" ON "portfolio_trade"("account_id", "trade_date", "id");
CREATE INDEX "portfolio_trade_account_id_target_key_idx" ON "portfolio_trade"("account_id", "target_key");
CREATE UNIQUE INDEX "portfolio_trade_account_id_trade_uid_key" ON "portfolio_trade"("account_id", "trade_uid");
CREATE UNIQUE INDEX "portfolio_trade_account_id_dedup_hash_key" ON "portfolio_trade"("account_id", "dedup_hash");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Data: every stored trade gets the currency of its market; an account without a market (a mixed account) gets the
-- market of its base currency (CONTRACT §12.1.1: market is one of cn|hk|us); updated_at starts at created_at.
UPDATE "portfolio_trade" SET "currency" = CASE "market" WHEN 'hk' THEN 'HKD' WHEN 'us' THEN 'USD' ELSE 'CNY' END;
UPDATE "portfolio_account" SET "market" = CASE "currency" WHEN 'HKD' THEN 'hk' WHEN 'USD' THEN 'us' ELSE 'cn' END WHERE "market" IS NULL;
UPDATE "portfolio_account" SET "updated_at" = "created_at" WHERE "updated_at" IS NULL;
