import fs from "node:fs";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import { redisConnection } from "@/lib/redis/connection";
import { redisKey } from "@/lib/redis/keys";
import { applyEnvUpdates, parseEnv } from "./env-file";
import {
  documentSnapshot,
  versionConflict,
  type EnvSnapshot,
  type EnvUpdateOptions,
  type EnvUpdateOutcome,
  type EnvUpdatePlan,
} from "./env-snapshot";
import { envFilePath, getRawSetting, installConfigDocument } from "@/lib/settings/settings";

// The configuration with PostgreSQL: the env text, byte for byte what the env file would hold,
// in one row with a revision that every replica shares. Edits go through the same text editor as the file
// (env-file.ts), so export and import keep the env-file format. A write is one conditional UPDATE (… WHERE
// revision = the one read), so of two replicas writing from the same revision exactly one succeeds; the
// other gets the 409 the file store gives. After a write the writer installs the new text in its own
// settings at once and announces the revision on Redis; the other replicas read the row (config-sync.ts).
// The text itself never goes over Redis or into a log: it holds the secrets.

const DOCUMENT_ID = 1;
/** Writers without an expected version (the watchlist, the auth switch) retry when another write wins. */
const UNVERSIONED_ATTEMPTS = 20;

export interface ConfigDocumentRow {
  text: string;
  revision: number;
  updatedAt: Date;
}

/** The Redis channel a writer announces a new revision on (the message is the revision number only). */
export function configChangedChannel(): string {
  return redisKey("config", "changed");
}

/** The row, created from the env file first when it does not exist yet. */
export async function readConfigDocument(): Promise<ConfigDocumentRow> {
  const row = await findRow();
  if (row) return row;
  await importEnvFileOnce();
  return db().configDocument.findUniqueOrThrow({
    where: { id: DOCUMENT_ID },
    select: { text: true, revision: true, updatedAt: true },
  });
}

function findRow(): Promise<ConfigDocumentRow | null> {
  return db().configDocument.findUnique({
    where: { id: DOCUMENT_ID },
    select: { text: true, revision: true, updatedAt: true },
  });
}

/** Only the revision: what a replica's poll reads every second. */
export async function readConfigRevision(): Promise<number | null> {
  const row = await db().configDocument.findUnique({ where: { id: DOCUMENT_ID }, select: { revision: true } });
  return row?.revision ?? null;
}

export async function readConfigDocumentSnapshot(): Promise<EnvSnapshot> {
  return documentSnapshot(await readConfigDocument());
}

/**
 * First start on PostgreSQL: the env file's text becomes revision 1, byte for byte (no file: empty text).
 * Insert-if-absent (ON CONFLICT DO NOTHING), so replicas starting together import it exactly once and a
 * row that exists is never overwritten. Returns whether this call created the row.
 */
export async function importEnvFileOnce(file: string = envFilePath()): Promise<boolean> {
  const text = readEnvFileText(file);
  const inserted = await db().$executeRaw`
    INSERT INTO "config_document" ("id", "text", "revision", "updated_at")
    VALUES (${DOCUMENT_ID}, ${text ?? ""}, 1, ${now()})
    ON CONFLICT ("id") DO NOTHING`;
  if (inserted === 1) {
    // Key count and path only: the values are secrets.
    const keys = Object.keys(parseEnv(text ?? "")).length;
    logger.info(
      { env_file: file, keys },
      text === null
        ? "No env file: the database configuration starts empty"
        : "Env file imported into the database configuration",
    );
  }
  return inserted === 1;
}

function readEnvFileText(file: string): string | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const text = bytes.toString("utf8");
  // The row must hold the same bytes the file did; a lossy decode would change them silently.
  if (!Buffer.from(text, "utf8").equals(bytes))
    throw new Error(`${file} is not valid UTF-8 text; fix it by hand before starting on PostgreSQL`);
  return text;
}

/**
 * Replaces the text if the row is still at `revision`; returns the new row, or null when another write
 * got there first. One statement, so the check and the write cannot be split by another replica.
 */
export async function writeConfigDocument(revision: number, text: string): Promise<ConfigDocumentRow | null> {
  const updatedAt = now();
  const changed = await db().$executeRaw`
    UPDATE "config_document" SET "text" = ${text}, "revision" = "revision" + 1, "updated_at" = ${updatedAt}
    WHERE "id" = ${DOCUMENT_ID} AND "revision" = ${revision}`;
  return changed === 1 ? { text, revision: revision + 1, updatedAt } : null;
}

/** Makes `row` this process's settings (unless it already holds that revision or a newer one). */
export function installConfigRow(row: ConfigDocumentRow): boolean {
  return installConfigDocument({
    databaseUrl: getRawSetting("DATABASE_URL") ?? "",
    ...row,
    values: parseEnv(row.text),
  });
}

function announce(revision: number): void {
  const connection = redisConnection();
  if (!connection) return;
  // Without Redis the other replicas still see the change through their one-second poll.
  connection.publish(configChangedChannel(), String(revision));
}

/**
 * updateEnvFile for the config document: read, check the expected version, plan, write conditionally. A
 * versioned write that loses the race gets the 409 with the winner's version; an unversioned one plans
 * again on the new text (so `plan` may run more than once).
 */
export async function updateConfigDocument<T>(
  options: EnvUpdateOptions,
  plan: (current: EnvSnapshot) => EnvUpdatePlan<T>,
): Promise<EnvUpdateOutcome<T>> {
  for (let attempt = 1; ; attempt++) {
    const row = await readConfigDocument();
    const before = documentSnapshot(row);
    if (options.expectedVersion !== undefined && options.expectedVersion !== before.version)
      throw versionConflict(before.version);
    const { updates, result } = plan(before);
    const unchanged = { before, after: before, written: false, inPlace: false, reloaded: false, result };
    if (Object.keys(updates).length === 0) return unchanged;
    const next = applyEnvUpdates(before.content, updates);
    if (next === before.content) return unchanged;

    const written = await writeConfigDocument(row.revision, next);
    if (!written) {
      if (options.expectedVersion !== undefined) throw versionConflict((await readConfigDocumentSnapshot()).version);
      if (attempt >= UNVERSIONED_ATTEMPTS)
        throw new Error("The configuration kept changing during this write; try again");
      continue;
    }
    announce(written.revision);
    const outcome: EnvUpdateOutcome<T> = {
      before,
      after: documentSnapshot(written),
      written: true,
      inPlace: false,
      reloaded: false,
      result,
    };
    // Installed even when no reload was asked for: this copy is also what the config API reads back, and
    // the file store's settings would pick the change up within a second anyway.
    try {
      installConfigRow(written);
      return { ...outcome, reloaded: true };
    } catch (error) {
      return { ...outcome, reloadError: (error as Error).message };
    }
  }
}
