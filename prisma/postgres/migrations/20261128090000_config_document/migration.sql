-- CreateTable
CREATE TABLE "config_document" (
    "id" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "config_document_pkey" PRIMARY KEY ("id")
);
