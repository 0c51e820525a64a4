import { updateEnvFile, type EnvSnapshot, type EnvUpdatePlan } from "@/lib/config/env-store";
import { environmentSetting, getSettings } from "@/lib/settings/settings";
import { ZSettings } from "@/lib/settings/settings-schema";
import { ApiError } from "@/lib/errors/api-error";
import { dedupKey, isRejection, resolveToken, type TResolvedSymbol } from "@/lib/market/symbols";
import { normalizeWatchToken } from "./resolve";
import { MAX_WATCHLIST_ENTRIES, type TWatchlist } from "./schemas";

// The watchlist is the STOCK_LIST setting: the scheduler, the alerts and the config API read the same list. Every
// change is a read-modify-write inside the config store's update (lib/config/env-store.ts): the list is read from the
// env file as it is under the process mutex and the lock file, so two edits at once never lose an entry, and a config
// PUT holding a version read before the change gets 409 config_version_conflict instead of writing over it.

const KEY = "STOCK_LIST";

// GET /api/v1/stocks/watchlist
export function getWatchlist(): TWatchlist {
  return { stock_codes: [...getSettings().STOCK_LIST] };
}

/** The list in effect in this snapshot: the file's value, else the process environment's (settings.ts precedence). */
function entriesOf(snapshot: EnvSnapshot): string[] {
  const fromFile = snapshot.values[KEY];
  const raw = fromFile !== undefined && fromFile.trim() !== "" ? fromFile : (environmentSetting(KEY) ?? "");
  return ZSettings.shape.STOCK_LIST.parse(raw);
}

/** Identity of an entry: the resolved stock or index (600519 = sh600519 = 贵州茅台), else its own text. */
function entryKey(entry: string): string {
  const resolved = resolveToken(entry);
  return isRejection(resolved) ? `text:${normalizeWatchToken(entry)}` : dedupKey(resolved);
}

function invalidCode(token: string, reason: string, extra: Record<string, unknown> = {}): ApiError {
  const text = token.trim();
  const message = text === "" || reason.includes(text) ? reason : `${text}: ${reason}`;
  return ApiError.of("invalid_stock_code", message, { stock_code: token, ...extra });
}

/** The stock or registered index a token names, resolved like an analyze target; else 400 invalid_stock_code. */
export function resolveWatchTarget(token: string): TResolvedSymbol {
  const resolved = resolveToken(token);
  if (!isRejection(resolved)) return resolved;
  throw invalidCode(token, resolved.reason, { reason_code: resolved.code, reason_params: resolved.params });
}

async function changeList(change: (entries: string[]) => string[] | null): Promise<TWatchlist> {
  const outcome = await updateEnvFile<string[]>({}, (snapshot): EnvUpdatePlan<string[]> => {
    const entries = entriesOf(snapshot);
    const next = change(entries);
    if (next === null) return { updates: {}, result: entries };
    return { updates: { [KEY]: next.join(",") }, result: next };
  });
  return { stock_codes: outcome.result };
}

// POST /api/v1/stocks/watchlist/add
export async function addToWatchlist(token: string): Promise<TWatchlist> {
  const target = resolveWatchTarget(token);
  const key = dedupKey(target);
  return changeList((entries) => {
    if (entries.some((entry) => entryKey(entry) === key)) return null;
    if (entries.length >= MAX_WATCHLIST_ENTRIES) {
      throw ApiError.of(
        "invalid_request",
        `The watchlist holds at most ${MAX_WATCHLIST_ENTRIES} entries; remove some first`,
      );
    }
    return [...entries, target.displayCode];
  });
}

// POST /api/v1/stocks/watchlist/remove
export async function removeFromWatchlist(token: string): Promise<TWatchlist> {
  const resolved = resolveToken(token);
  // A token that does not resolve can still remove an entry of the same text (a hand-edited entry that never resolved).
  const key = isRejection(resolved) ? `text:${normalizeWatchToken(token)}` : dedupKey(resolved);
  return changeList((entries) => {
    const kept = entries.filter((entry) => entryKey(entry) !== key);
    if (kept.length < entries.length) return kept;
    if (isRejection(resolved))
      throw invalidCode(token, resolved.reason, { reason_code: resolved.code, reason_params: resolved.params });
    return null;
  });
}
