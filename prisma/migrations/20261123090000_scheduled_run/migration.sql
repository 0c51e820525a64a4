-- CreateTable
CREATE TABLE "scheduled_run" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "slot_key" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "owner" TEXT,
    "summary" TEXT,
    "error" TEXT,
    "trace_id" TEXT,
    "digest" TEXT,
    "started_at" DATETIME NOT NULL,
    "finished_at" DATETIME
);

-- CreateIndex
CREATE UNIQUE INDEX "scheduled_run_slot_key_key" ON "scheduled_run"("slot_key");

-- CreateIndex
CREATE UNIQUE INDEX "scheduled_run_trace_id_key" ON "scheduled_run"("trace_id");

-- CreateIndex
CREATE INDEX "scheduled_run_started_at_idx" ON "scheduled_run"("started_at");

-- CreateIndex
CREATE INDEX "scheduled_run_digest_idx" ON "scheduled_run"("digest");
