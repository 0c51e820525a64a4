-- CreateTable
CREATE TABLE "config_document" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "text" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "updated_at" DATETIME NOT NULL
);
