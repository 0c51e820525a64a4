-- CreateTable
CREATE TABLE "daily_bar" (
    "symbol_key" TEXT NOT NULL,
    "trade_date" TEXT NOT NULL,
    "open" REAL NOT NULL,
    "high" REAL NOT NULL,
    "low" REAL NOT NULL,
    "close" REAL NOT NULL,
    "volume" REAL NOT NULL,
    "amount" REAL,
    "turnover_rate" REAL,
    "source" TEXT NOT NULL,
    "fetched_at" DATETIME NOT NULL,

    PRIMARY KEY ("symbol_key", "trade_date")
);
