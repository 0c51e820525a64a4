import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";

// The admin password hash lives in the database (never in the env file, never returned by any API).
const KEY = "admin_password_hash";

export async function storedPasswordHash(): Promise<string | null> {
  const row = await db().appState.findUnique({ where: { key: KEY } });
  return row?.value ?? null;
}

export async function storePasswordHash(hash: string): Promise<void> {
  await db().appState.upsert({ where: { key: KEY }, create: { key: KEY, value: hash }, update: { value: hash } });
}

/** First-time setup: stores the hash only if none exists yet; false when another request set one first. */
export async function storeFirstPasswordHash(hash: string): Promise<boolean> {
  try {
    await db().appState.create({ data: { key: KEY, value: hash } });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
