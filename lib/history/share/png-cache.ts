import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { ShareCard } from "./card";

// A share PNG is kept per card content (the record's report as the card shows it), so a repeat request
// for the same record is a memory read, and concurrent requests for one card render it once. A changed report (or
// a changed card layout) hashes differently, so a stale image is never served. Bounded by bytes, least recently
// used first out.

export const PNG_CACHE_MAX_BYTES = 64 * 1024 * 1024;

type Render = () => Promise<Uint8Array>;

const holder = globalThis as typeof globalThis & { dsaSharePngCache?: LRUCache<string, Uint8Array, Render> };

function cache(): LRUCache<string, Uint8Array, Render> {
  holder.dsaSharePngCache ??= new LRUCache<string, Uint8Array, Render>({
    maxSize: PNG_CACHE_MAX_BYTES,
    sizeCalculation: (png) => Math.max(1, png.byteLength),
    fetchMethod: (_key, _stale, { context }) => context(),
  });
  return holder.dsaSharePngCache;
}

export function cardKey(card: ShareCard): string {
  return createHash("sha256").update(JSON.stringify(card)).digest("base64url");
}

/** The card's PNG from the cache, else rendered once (a failed render is not cached). */
export async function cachedSharePng(
  card: ShareCard,
  render: Render,
  key: string = cardKey(card),
): Promise<Uint8Array> {
  const png = await cache().fetch(key, { context: render });
  if (!png) throw new Error("share PNG render returned nothing");
  return png;
}

/** The image kept for a card key, if it is still kept (never renders). */
export function keptSharePng(key: string): Uint8Array | undefined {
  return cache().get(key);
}

/** Tests and benchmarks: forget every cached image. */
export function clearSharePngCache(): void {
  cache().clear();
}
