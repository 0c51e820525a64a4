-- CreateTable
CREATE TABLE "screening_strategy" (
    "id" TEXT NOT NULL,
    "definition" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "screening_strategy_pkey" PRIMARY KEY ("id")
);
