-- CreateTable
CREATE TABLE "engine_evidence" (
    "symbol_key" TEXT NOT NULL,
    "engine_version" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "figures" TEXT NOT NULL,
    "computed_at" DATETIME NOT NULL,

    PRIMARY KEY ("symbol_key", "engine_version", "source")
);
