-- CreateTable
CREATE TABLE "history_version" (
    "id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "history_version_pkey" PRIMARY KEY ("id")
);

INSERT INTO "history_version" ("id", "version") VALUES (1, 0);

-- Every transaction that changes analysis_history raises the version once, as it commits (the history lists' read
-- cache compares it before serving). A deferred constraint trigger, so the version row is locked only while a
-- transaction commits: taken at its first history write, one row would hold every other replica's history writes
-- until the end of that transaction.
CREATE FUNCTION "history_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('dsa.history_version_bumped', true) IS DISTINCT FROM txid_current()::text THEN
        PERFORM set_config('dsa.history_version_bumped', txid_current()::text, true);
        UPDATE "history_version" SET "version" = "version" + 1 WHERE "id" = 1;
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER "history_version_change" AFTER INSERT OR UPDATE OR DELETE ON "analysis_history"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "history_version_bump"();
