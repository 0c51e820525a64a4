import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { readOneRowSoon, storedTime } from "@/lib/db/one-row";
import { notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { andThen, type Soon } from "@/lib/soon";
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

type Row = {
  id: string;
  name: string;
  scope: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
};

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

export async function createApiToken(input: {
  name: string;
  scope: TokenScope;
  expires_in_days?: number;
}): Promise<Omit<ApiTokenView, "last_used_at"> & { token: string }> {
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
// Read on every request a token makes: through the direct reader on SQLite (lib/db/one-row.ts), which costs a few
// microseconds where Prisma's findUnique cost hundreds.
const TOKEN_SQL = "SELECT id, scope, expires_at, last_used_at, revoked_at FROM api_token WHERE token_hash = ?";
type TokenRow = { id: string; scope: string; expires_at: unknown; last_used_at: unknown; revoked_at: unknown };

export function verifyApiToken(secret: string): Soon<{ id: string; scope: string } | null> {
  if (secret === "") return null;
  return andThen(readOneRowSoon<TokenRow>(TOKEN_SQL, [hashToken(secret)]), (row) => {
    const at = now().getTime();
    // An expiry that does not read as a time fails closed.
    if (!row || row.revoked_at !== null || (row.expires_at !== null && !(storedTime(row.expires_at) > at))) return null;
    const token = { id: row.id, scope: row.scope };
    const lastUsed = row.last_used_at === null ? Number.NaN : storedTime(row.last_used_at);
    if (at - lastUsed < LAST_USED_EVERY_MS) return token;
    return db()
      .apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date(at) } })
      .then(() => token);
  });
}
