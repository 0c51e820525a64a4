-- CreateTable
CREATE TABLE "portfolio_fx_rate" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "currency" TEXT NOT NULL,
    "rate" REAL NOT NULL,
    "rate_date" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "fetched_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "portfolio_fx_rate_currency_rate_date_key" ON "portfolio_fx_rate"("currency", "rate_date");
