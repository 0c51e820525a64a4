import { Prisma } from "@/generated/prisma/client";
import { ApiError } from "@/lib/errors/api-error";
import { isUniqueViolation } from "@/lib/db/errors";

// Portfolio writes (docs/api.md §12.1.10): a write that cannot get the database within the busy timeout (another process
// holds SQLite's write lock) is 409 portfolio_busy, so a client can retry; a second trade_uid in an account is 409
// conflict. Everything else passes through to the route wrapper.

const BUSY_CODES = new Set(["P1008", "P2028", "P2034"]);

function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  let current: unknown = error;
  while (current && typeof current === "object" && out.length < 6) {
    out.push(current);
    const next =
      (current as { cause?: unknown; meta?: { driverAdapterError?: unknown } }).meta?.driverAdapterError ??
      (current as { cause?: unknown }).cause;
    current = next;
  }
  return out;
}

export function isDatabaseBusy(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError && BUSY_CODES.has(error.code)) return true;
  return chain(error).some((e) => {
    const { code, originalCode, message } = e as { code?: unknown; originalCode?: unknown; message?: unknown };
    return (
      code === "SQLITE_BUSY" ||
      code === "SQLITE_LOCKED" ||
      originalCode === "SQLITE_BUSY" ||
      (typeof message === "string" && /database is locked|SQLITE_BUSY/i.test(message))
    );
  });
}

function uniqueFields(error: unknown): string[] | null {
  if (!isUniqueViolation(error)) return null;
  const target =
    ((error as { meta?: unknown }).meta as
      | { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[] } } } }
      | undefined) ?? {};
  if (Array.isArray(target.target)) return target.target.map(String);
  return target.driverAdapterError?.cause?.constraint?.fields ?? [];
}

/** Runs one portfolio write, turning a busy database and a duplicate trade_uid into their 409 codes. */
export async function portfolioWrite<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (isDatabaseBusy(error))
      throw ApiError.of("portfolio_busy", "The portfolio database is busy with another write; try again");
    const fields = uniqueFields(error);
    if (fields !== null) {
      const what = fields.some((f) => /trade_uid|tradeUid/.test(f))
        ? "trade_uid"
        : fields.some((f) => /dedup_hash|dedupHash/.test(f))
          ? "dedup_hash"
          : "a unique key";
      throw ApiError.of("conflict", `A trade with the same ${what} is already stored in this account`);
    }
    throw error;
  }
}
