-- CreateTable
CREATE TABLE "history_version" (
    "id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "history_version_pkey" PRIMARY KEY ("id")
);

INSERT INTO "history_version" ("id", "version") VALUES (1, 0);

-- Every statement that changes analysis_history raises the version in its own transaction (the history lists'
-- read cache compares it before serving). BEFORE the statement, so the version row is always the first lock a
-- history write takes (the history_target triggers lock target rows after it): two transactions of several
-- history statements each cannot lock the same rows in opposite orders.
CREATE FUNCTION "history_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "history_version" SET "version" = "version" + 1 WHERE "id" = 1;
    RETURN NULL;
END $$;

CREATE TRIGGER "history_version_change" BEFORE INSERT OR UPDATE OR DELETE ON "analysis_history"
    FOR EACH STATEMENT EXECUTE FUNCTION "history_version_bump"();
