-- CreateTable
CREATE TABLE "paper_account" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "starting_cash" REAL NOT NULL,
    "follow" TEXT NOT NULL,
    "sizing" TEXT NOT NULL,
    "fees" TEXT NOT NULL,
    "lot_size" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "start_session" TEXT NOT NULL,
    "last_session" TEXT,
    "state" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "paper_day" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "account_id" INTEGER NOT NULL,
    "session" TEXT NOT NULL,
    "cash" REAL NOT NULL,
    "market_value" REAL NOT NULL,
    "equity" REAL NOT NULL,
    "positions" INTEGER NOT NULL,
    "notes" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "paper_fill" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "account_id" INTEGER NOT NULL,
    "session" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "price" REAL NOT NULL,
    "fees" REAL NOT NULL,
    "reason" TEXT NOT NULL,
    "signal_id" INTEGER NOT NULL,
    "report_id" INTEGER,
    "created_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "paper_day_account_id_session_key" ON "paper_day"("account_id", "session");

-- CreateIndex
CREATE INDEX "paper_fill_account_id_session_idx" ON "paper_fill"("account_id", "session");
