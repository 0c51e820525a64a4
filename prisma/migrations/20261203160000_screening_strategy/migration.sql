-- CreateTable
CREATE TABLE "screening_strategy" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "definition" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);
