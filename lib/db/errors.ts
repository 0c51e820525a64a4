/**
 * A write refused by a unique index (Prisma's P2002), on either database. Matched by code, not class: the
 * SQLite and PostgreSQL clients are generated separately.
 */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
