-- CreateTable
CREATE TABLE "portfolio_cash_ledger" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "account_id" INTEGER NOT NULL,
    "event_date" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "amount" REAL NOT NULL,
    "currency" TEXT NOT NULL,
    "note" TEXT,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "portfolio_cash_ledger_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "portfolio_account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "portfolio_corporate_action" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "account_id" INTEGER NOT NULL,
    "stock_code" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "effective_date" TEXT NOT NULL,
    "action_type" TEXT NOT NULL,
    "cash_dividend_per_share" REAL,
    "split_ratio" REAL,
    "note" TEXT,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "portfolio_corporate_action_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "portfolio_account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "portfolio_cash_ledger_account_id_event_date_id_idx" ON "portfolio_cash_ledger"("account_id", "event_date", "id");

-- CreateIndex
CREATE INDEX "portfolio_cash_ledger_event_date_id_idx" ON "portfolio_cash_ledger"("event_date", "id");

-- CreateIndex
CREATE INDEX "portfolio_corporate_action_account_id_effective_date_id_idx" ON "portfolio_corporate_action"("account_id", "effective_date", "id");

-- CreateIndex
CREATE INDEX "portfolio_corporate_action_account_id_target_key_idx" ON "portfolio_corporate_action"("account_id", "target_key");

-- CreateIndex
CREATE INDEX "portfolio_corporate_action_effective_date_id_idx" ON "portfolio_corporate_action"("effective_date", "id");
