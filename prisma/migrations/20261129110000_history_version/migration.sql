-- CreateTable
CREATE TABLE "history_version" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "version" INTEGER NOT NULL DEFAULT 0
);

INSERT INTO "history_version" ("id", "version") VALUES (1, 0);

-- Every change to analysis_history raises the version in its own transaction, on every write path (Prisma, raw
-- SQL, bulk deletes, another process on the same file): the history lists' read cache compares it before serving.
CREATE TRIGGER "history_version_insert" AFTER INSERT ON "analysis_history" BEGIN
    UPDATE "history_version" SET "version" = "version" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "history_version_delete" AFTER DELETE ON "analysis_history" BEGIN
    UPDATE "history_version" SET "version" = "version" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "history_version_update" AFTER UPDATE ON "analysis_history" BEGIN
    UPDATE "history_version" SET "version" = "version" + 1 WHERE "id" = 1;
END;
