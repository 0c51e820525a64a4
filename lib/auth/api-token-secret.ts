import { createHash, randomBytes } from "node:crypto";

export const TOKEN_PREFIX = "dsa_";
// Enough of the token to tell two apart in a list, far too little to guess the rest (32 random bytes).
const DISPLAY_CHARS = 12;

export type TokenScope = "read" | "write";

/** A new secret: shown to its creator once, stored only as its hash. */
export function newTokenSecret(): { token: string; hash: string; prefix: string } {
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token), prefix: token.slice(0, DISPLAY_CHARS) };
}

// A plain SHA-256 is enough: the secret has 256 random bits, so there is nothing for a slow hash to protect.
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The token of an `Authorization: Bearer …` header, or null when the request carries none. */
export function bearerTokenOf(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  // A malformed header is still an attempt at a token: "" fails verification (401) rather than being ignored.
  return match?.[1] ?? "";
}

const READ_METHODS = new Set(["GET", "HEAD"]);

/** `read` reaches GET and HEAD only (the SSE task stream is a GET); `write` reaches every method. */
export function scopeAllows(scope: string, method: string): boolean {
  if (scope === "write") return true;
  return scope === "read" && READ_METHODS.has(method.toUpperCase());
}
