-- CreateTable
CREATE TABLE "history_target" (
    "target_key" TEXT NOT NULL,
    "latest_id" INTEGER NOT NULL,
    "record_count" INTEGER NOT NULL,

    CONSTRAINT "history_target_pkey" PRIMARY KEY ("target_key")
);

-- CreateIndex
CREATE INDEX "history_target_latest_id_idx" ON "history_target"("latest_id");

-- One row per target of analysis_history, kept by these triggers on every write path (Prisma, raw SQL,
-- bulk deletes); statement-level, so a bulk delete updates each target once. Rows are locked in target
-- order so two multi-target statements cannot deadlock. A delete keeps the latest id when a concurrent
-- insert already raised it past the deleted records, and recomputes it only when it removed the latest. A
-- target whose records are all gone keeps its row with a count of 0 (readers skip it).
CREATE FUNCTION "history_target_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "history_target" ("target_key", "latest_id", "record_count")
    SELECT "target_key", MAX("id"), COUNT(*) FROM "added_rows" GROUP BY "target_key" ORDER BY "target_key"
    ON CONFLICT ("target_key") DO UPDATE SET
        "latest_id" = GREATEST("history_target"."latest_id", EXCLUDED."latest_id"),
        "record_count" = "history_target"."record_count" + EXCLUDED."record_count";
    RETURN NULL;
END $$;

CREATE FUNCTION "history_target_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM "history_target" WHERE "target_key" IN (SELECT "target_key" FROM "removed_rows") ORDER BY "target_key" FOR UPDATE;
    UPDATE "history_target" AS t SET
        "record_count" = t."record_count" - d."n",
        "latest_id" = CASE WHEN t."latest_id" > d."max_id" THEN t."latest_id"
            ELSE COALESCE((SELECT MAX(h."id") FROM "analysis_history" AS h WHERE h."target_key" = d."target_key"), 0) END
    FROM (SELECT "target_key", MAX("id") AS "max_id", COUNT(*) AS "n" FROM "removed_rows" GROUP BY "target_key") AS d
    WHERE t."target_key" = d."target_key";
    RETURN NULL;
END $$;

CREATE FUNCTION "history_target_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "history_target" SET
        "record_count" = "record_count" - 1,
        "latest_id" = CASE WHEN "latest_id" > OLD."id" THEN "latest_id"
            ELSE COALESCE((SELECT MAX("id") FROM "analysis_history" WHERE "target_key" = OLD."target_key"), 0) END
    WHERE "target_key" = OLD."target_key";
    INSERT INTO "history_target" ("target_key", "latest_id", "record_count") VALUES (NEW."target_key", NEW."id", 1)
    ON CONFLICT ("target_key") DO UPDATE SET
        "latest_id" = GREATEST("history_target"."latest_id", EXCLUDED."latest_id"),
        "record_count" = "history_target"."record_count" + 1;
    RETURN NULL;
END $$;

CREATE TRIGGER "history_target_insert" AFTER INSERT ON "analysis_history"
    REFERENCING NEW TABLE AS "added_rows" FOR EACH STATEMENT EXECUTE FUNCTION "history_target_added"();
CREATE TRIGGER "history_target_delete" AFTER DELETE ON "analysis_history"
    REFERENCING OLD TABLE AS "removed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "history_target_removed"();
CREATE TRIGGER "history_target_retarget" AFTER UPDATE OF "target_key" ON "analysis_history"
    FOR EACH ROW WHEN (OLD."target_key" IS DISTINCT FROM NEW."target_key") EXECUTE FUNCTION "history_target_moved"();

-- The records stored before this migration.
INSERT INTO "history_target" ("target_key", "latest_id", "record_count")
SELECT "target_key", MAX("id"), COUNT(*) FROM "analysis_history" GROUP BY "target_key";
