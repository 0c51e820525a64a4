-- CreateTable
CREATE TABLE "paper_account" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "starting_cash" DOUBLE PRECISION NOT NULL,
    "follow" TEXT NOT NULL,
    "sizing" TEXT NOT NULL,
    "fees" TEXT NOT NULL,
    "lot_size" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "start_session" TEXT NOT NULL,
    "last_session" TEXT,
    "state" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "paper_account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "paper_day" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "session" TEXT NOT NULL,
    "cash" DOUBLE PRECISION NOT NULL,
    "market_value" DOUBLE PRECISION NOT NULL,
    "equity" DOUBLE PRECISION NOT NULL,
    "positions" INTEGER NOT NULL,
    "notes" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "paper_day_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "paper_fill" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "session" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "price" DOUBLE PRECISION NOT NULL,
    "fees" DOUBLE PRECISION NOT NULL,
    "reason" TEXT NOT NULL,
    "signal_id" INTEGER NOT NULL,
    "report_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "paper_fill_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "paper_day_account_id_session_key" ON "paper_day"("account_id", "session");

-- CreateIndex
CREATE INDEX "paper_fill_account_id_session_idx" ON "paper_fill"("account_id", "session");
