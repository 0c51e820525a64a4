-- CreateTable
CREATE TABLE "screening_snapshot" (
    "market" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "row_count" INTEGER NOT NULL,
    "rows" TEXT NOT NULL,
    "fetched_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "screening_snapshot_pkey" PRIMARY KEY ("market","source")
);
