-- CreateTable
CREATE TABLE "portfolio_trade" (
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
    CONSTRAINT "portfolio_trade_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "portfolio_account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_portfolio_position" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "account_id" INTEGER NOT NULL,
    "market" TEXT NOT NULL,
    "stock_code" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "quantity" REAL NOT NULL,
    "avg_cost" REAL,
    "fifo_cost" REAL,
    "realized_avg" REAL NOT NULL DEFAULT 0,
    "realized_fifo" REAL NOT NULL DEFAULT 0,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "portfolio_position_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "portfolio_account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_portfolio_position" ("account_id", "avg_cost", "id", "market", "quantity", "stock_code", "target_key", "updated_at") SELECT "account_id", "avg_cost", "id", "market", "quantity", "stock_code", "target_key", "updated_at" FROM "portfolio_position";
DROP TABLE "portfolio_position";
ALTER TABLE "new_portfolio_position" RENAME TO "portfolio_position";
CREATE INDEX "portfolio_position_target_key_idx" ON "portfolio_position"("target_key");
CREATE UNIQUE INDEX "portfolio_position_account_id_target_key_key" ON "portfolio_position"("account_id", "target_key");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "portfolio_trade_account_id_trade_date_id_idx" ON "portfolio_trade"("account_id", "trade_date", "id");

-- CreateIndex
CREATE INDEX "portfolio_trade_account_id_target_key_idx" ON "portfolio_trade"("account_id", "target_key");
