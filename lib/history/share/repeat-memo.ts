import { LRUCache } from "lru-cache";
import { getSettings } from "@/lib/settings/settings";
import { readOneRow } from "@/lib/db/one-row";
import { perClient } from "@/lib/db/per-client";
import { nameSourcesGeneration } from "@/lib/market/symbols";

// A repeat request for a share image skips reading the record and its news, and building the Markdown and the card,
// while none of what the card is made of has changed: the record (its evidence included) and its news
// (history_version rises with every change to analysis_history, and news are only written and deleted with their
// record), the stock-name list (its generation) and the settings (their object, replaced on every reload). The stamp
// of all of them is one small query. The image itself stays in the PNG cache, so an image evicted there is built again.

const MAX_ENTRIES = 512;

export interface ShareStamp {
  history: number | null;
  names: number;
  settings: object;
}

export interface RememberedShare {
  stamp: ShareStamp;
  cardKey: string;
  filename: string;
}

// Per database client: another database has other records under the same ids and versions.
const memoFor = perClient(() => new LRUCache<string, RememberedShare>({ max: MAX_ENTRIES }));

/** What a share card is made of, now. Read before the card's own inputs. */
export async function readShareStamp(): Promise<ShareStamp> {
  const settings = getSettings();
  const names = nameSourcesGeneration();
  const row = await readOneRow<{ history: number | bigint | string | null }>(
    "SELECT (SELECT version FROM history_version WHERE id = 1) AS history",
    [],
  );
  const history = row?.history === null || row?.history === undefined ? null : Number(row.history);
  return { history, names, settings };
}

/** Both stamps name the same inputs (a missing history version matches nothing: then nothing is served from memory). */
export function sameStamp(a: ShareStamp, b: ShareStamp): boolean {
  return a.history !== null && a.history === b.history && a.names === b.names && a.settings === b.settings;
}

export function rememberedShare(key: string): RememberedShare | undefined {
  return memoFor().get(key);
}

export function rememberShare(key: string, entry: RememberedShare): void {
  if (entry.stamp.history === null) return;
  memoFor().set(key, entry);
}
