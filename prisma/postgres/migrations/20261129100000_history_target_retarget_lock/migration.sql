-- Under READ COMMITTED an UPDATE that waits for another transaction's lock on a history_target row re-reads
-- only that row when the lock comes free: its MAX("id") subquery still answers from the snapshot taken before
-- the wait. A target change that waited for a concurrent delete of the same target's latest record therefore
-- wrote back the deleted id (seen as a row with record_count 0 and latest_id still set). Each trigger now takes
-- the target rows' locks in one statement (in target order, as the delete trigger already did) and reads the
-- records in the next one, whose snapshot starts after the lock is held. A target left with no records gets
-- latest_id 0 without reading anything.
CREATE OR REPLACE FUNCTION "history_target_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM "history_target" WHERE "target_key" IN (SELECT "target_key" FROM "removed_rows") ORDER BY "target_key" FOR UPDATE;
    UPDATE "history_target" AS t SET
        "record_count" = t."record_count" - d."n",
        "latest_id" = CASE WHEN t."record_count" <= d."n" THEN 0
            WHEN t."latest_id" > d."max_id" THEN t."latest_id"
            ELSE COALESCE((SELECT MAX(h."id") FROM "analysis_history" AS h WHERE h."target_key" = d."target_key"), 0) END
    FROM (SELECT "target_key", MAX("id") AS "max_id", COUNT(*) AS "n" FROM "removed_rows" GROUP BY "target_key") AS d
    WHERE t."target_key" = d."target_key";
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "history_target_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM "history_target" WHERE "target_key" IN (OLD."target_key", NEW."target_key") ORDER BY "target_key" FOR UPDATE;
    UPDATE "history_target" SET
        "record_count" = "record_count" - 1,
        "latest_id" = CASE WHEN "record_count" <= 1 THEN 0
            WHEN "latest_id" > OLD."id" THEN "latest_id"
            ELSE COALESCE((SELECT MAX("id") FROM "analysis_history" WHERE "target_key" = OLD."target_key"), 0) END
    WHERE "target_key" = OLD."target_key";
    INSERT INTO "history_target" ("target_key", "latest_id", "record_count") VALUES (NEW."target_key", NEW."id", 1)
    ON CONFLICT ("target_key") DO UPDATE SET
        "latest_id" = GREATEST("history_target"."latest_id", EXCLUDED."latest_id"),
        "record_count" = "history_target"."record_count" + 1;
    RETURN NULL;
END $$;

-- Rows the old triggers may have left wrong are derived again from the records.
UPDATE "history_target" AS t SET "latest_id" = COALESCE(s."max_id", 0), "record_count" = COALESCE(s."n", 0)
FROM "history_target" AS k
LEFT JOIN (SELECT "target_key", MAX("id") AS "max_id", COUNT(*) AS "n" FROM "analysis_history" GROUP BY "target_key") AS s
    ON s."target_key" = k."target_key"
WHERE k."target_key" = t."target_key"
    AND (t."latest_id" <> COALESCE(s."max_id", 0) OR t."record_count" <> COALESCE(s."n", 0));
