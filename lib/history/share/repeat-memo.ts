import { LRUCache } from "lru-cache";
import { latestTrackRecordSql } from "@/lib/backtest/track-record";
import { getSettings } from "@/lib/settings/settings";
import { readOneRow } from "@/lib/db/one-row";
import { perClient } from "@/lib/db/per-client";
import { nameSourcesGeneration } from "@/lib/market/symbols";

// A repeat request for a share image skips reading the record, its news and its track record, and
// building the Markdown and the card, while none of what the card is made of has changed: the record and its news
// (history_version rises with every change to analysis_history, and news are only written and deleted with their
// record), the stock's latest track record (the id and completion time of the run it comes from), the stock-name list (its generation)
// and the settings (their object, replaced on every reload). The stamp of all of them is one small query. The image
// itself stays in the PNG cache, so an image evicted there is built again.

const MAX_ENTRIES = 512;

export interface ShareStamp {
  history: number | null;
  backtest: string | null;
  names: number;
  settings: object;
}

export interface RememberedShare {
  stamp: ShareStamp;
  targetKey: string;
  cardKey: string;
  filename: string;
}

// Per database client: another database has other records under the same ids and versions.
const memoFor = perClient(() => new LRUCache<string, RememberedShare>({ max: MAX_ENTRIES }));

/** What a share card of a record with this target is made of, now. Read before the card's own inputs. */
export async function readShareStamp(targetKey: string): Promise<ShareStamp> {
  const settings = getSettings();
  const names = nameSourcesGeneration();
  const id = latestTrackRecordSql("id", targetKey);
  const completed = latestTrackRecordSql("completed_at", targetKey);
  const row = await readOneRow<{
    history: number | bigint | string | null;
    backtest: string | number | null;
    completed: unknown;
  }>(
    `SELECT (SELECT version FROM history_version WHERE id = 1) AS history, (${id.sql}) AS backtest, (${completed.sql}) AS completed`,
    [...id.params, ...completed.params],
  );
  const history = row?.history === null || row?.history === undefined ? null : Number(row.history);
  const at = row?.completed instanceof Date ? row.completed.getTime() : (row?.completed ?? null);
  return { history, backtest: row?.backtest ? `${row.backtest}|${String(at)}` : null, names, settings };
}

/** Both stamps name the same inputs (a missing history version matches nothing: then nothing is served from memory). */
export function sameStamp(a: ShareStamp, b: ShareStamp): boolean {
  return (
    a.history !== null &&
    a.history === b.history &&
    a.backtest === b.backtest &&
    a.names === b.names &&
    a.settings === b.settings
  );
}

export function rememberedShare(key: string): RememberedShare | undefined {
  return memoFor().get(key);
}

export function rememberShare(key: string, entry: RememberedShare): void {
  if (entry.stamp.history === null) return;
  memoFor().set(key, entry);
}
