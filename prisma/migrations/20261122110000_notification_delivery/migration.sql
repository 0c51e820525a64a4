-- CreateTable
CREATE TABLE "notification_delivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "channel" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "error" TEXT,
    "title" TEXT NOT NULL,
    "related_kind" TEXT,
    "related_id" TEXT,
    "dedup_key" TEXT NOT NULL,
    "latency_ms" INTEGER,
    "created_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "notification_delivery_dedup_key_channel_created_at_idx" ON "notification_delivery"("dedup_key", "channel", "created_at");

-- CreateIndex
CREATE INDEX "notification_delivery_related_kind_related_id_idx" ON "notification_delivery"("related_kind", "related_id");

-- CreateIndex
CREATE INDEX "notification_delivery_created_at_idx" ON "notification_delivery"("created_at");
