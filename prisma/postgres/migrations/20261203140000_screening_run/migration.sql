-- CreateTable
CREATE TABLE "screening_run" (
    "id" SERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "strategy" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "snapshot_source" TEXT NOT NULL,
    "snapshot_count" INTEGER NOT NULL,
    "after_filter_count" INTEGER NOT NULL,
    "candidate_count" INTEGER NOT NULL,
    "quality_status" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "screening_run_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "screening_run_run_id_key" ON "screening_run"("run_id");

-- CreateIndex
CREATE INDEX "screening_run_created_at_idx" ON "screening_run"("created_at");

-- CreateIndex
CREATE INDEX "screening_run_strategy_market_created_at_idx" ON "screening_run"("strategy", "market", "created_at");
