-- CreateTable
CREATE TABLE "engine_evidence" (
    "symbol_key" TEXT NOT NULL,
    "engine_version" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "figures" TEXT NOT NULL,
    "computed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "engine_evidence_pkey" PRIMARY KEY ("symbol_key","engine_version","source")
);
