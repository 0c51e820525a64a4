-- CreateTable
CREATE TABLE "stock_listing" (
    "market" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "name_zh" TEXT NOT NULL,
    "name_en" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'stock',
    "exchange" TEXT,
    "source" TEXT NOT NULL,
    "updated_at" DATETIME NOT NULL,

    PRIMARY KEY ("market", "code")
);

-- CreateIndex
CREATE INDEX "stock_listing_name_zh_idx" ON "stock_listing"("name_zh");
