import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/http/api-error";
import { newId } from "@/lib/ids";
import { hashToken, newTokenSecret, type TokenScope } from "./api-token-secret";

const DAY_MS = 24 * 3600 * 1000;
// last_used_at is a hint for the owner, not an audit log: one write a minute per token is enough.
const LAST_USED_EVERY_MS = 60 * 1000;

export interface ApiTokenView {
  id: string;
  name: string;
  scope: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

type Row = { id: string; name: string; scope: string; prefix: string; createdAt: Date; expiresAt: Date | null; lastUsedAt: Date | null };

function view(row: Row): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function createApiToken(input: { name: string; scope: TokenScope; expires_in_days?: number }): Promise<Omit<ApiTokenView, "last_used_at"> & { token: string }> {
  const { token, hash, prefix } = newTokenSecret();
  const createdAt = now();
  const expiresAt = input.expires_in_days ? new Date(createdAt.getTime() + input.expires_in_days * DAY_MS) : null;
  const row = await db().apiToken.create({
    data: { id: newId(), name: input.name, scope: input.scope, tokenHash: hash, prefix, createdAt, expiresAt },
  });
  const { id, name, scope, prefix: shownPrefix, created_at, expires_at } = view(row);
  return { id, name, scope, token, prefix: shownPrefix, created_at, expires_at };
}

/** Live tokens, newest first; revoked ones are gone from the list, expired ones stay until revoked. */
export async function listApiTokens(): Promise<ApiTokenView[]> {
  const rows = await db().apiToken.findMany({ where: { revokedAt: null }, orderBy: { createdAt: "desc" } });
  return rows.map(view);
}

export async function revokeApiToken(id: string): Promise<void> {
  const { count } = await db().apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now() } });
  if (count === 0) throw notFound(`No API token ${id}`);
}

/** The live token the secret belongs to, or null (unknown, revoked or expired). */
export async function verifyApiToken(secret: string): Promise<{ id: string; scope: string } | null> {
  if (secret === "") return null;
  const row = await db().apiToken.findUnique({ where: { tokenHash: hashToken(secret) } });
  const at = now();
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= at)) return null;
  if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
    await db().apiToken.update({ where: { id: row.id }, data: { lastUsedAt: at } });
  }
  return { id: row.id, scope: row.scope };
}
