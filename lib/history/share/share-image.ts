import type { AnalysisHistory } from "@/generated/prisma/client";
import { getSettings } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import type { PriceColors } from "@/lib/theme/price-colors";
import { logger } from "@/lib/log/logger";
import { buildRecordMarkdown, findHistoryRecord, getHistoryRecordOrThrow, readRecordNews } from "../record";
import { buildShareCard, type ShareCard } from "./card";
import { renderShareHtml } from "./html";
import { cachedSharePng, cardKey, keptSharePng } from "./png-cache";
import { readShareStamp, rememberedShare, rememberShare, sameStamp } from "./repeat-memo";
import { renderSharePng, warmShareRenderer, type PngDeps } from "./png";

// GET /api/v1/history/{record_id}/share-image-html and /share-image (spec 4.3 rules 5 and 6): one record's
// share card, as an HTML page or a PNG. Both refuse (413) a report whose Markdown is longer than the limit.

export const DEFAULT_SHARE_IMAGE_MAX_CHARS = 15000;

/** SHARE_IMAGE_MAX_CHARS, else the reference's MARKDOWN_TO_IMAGE_MAX_CHARS, else 15000 (docs/api.md §8). */
export function shareImageMaxChars(): number {
  const settings = getSettings();
  return settings.SHARE_IMAGE_MAX_CHARS ?? settings.MARKDOWN_TO_IMAGE_MAX_CHARS ?? DEFAULT_SHARE_IMAGE_MAX_CHARS;
}

/** Characters as the reference counts them (code points, not UTF-16 units). */
export function characterCount(text: string): number {
  const surrogatePairs = text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0;
  return text.length - surrogatePairs;
}

export function assertShareSize(markdown: string, maxChars: number): void {
  const length = characterCount(markdown);
  if (length > maxChars) {
    throw ApiError.of(
      "share_image_too_large",
      `The report has ${length} characters; share images hold at most ${maxChars}`,
      {
        detail: { length, max_chars: maxChars },
      },
    );
  }
}

/** The request's choices: `colors` (query parameter) overrides the report language's price colours. */
export interface ShareOptions {
  colors?: PriceColors;
}

async function shareCardOf(row: AnalysisHistory, options: ShareOptions): Promise<ShareCard> {
  const { report, markdown } = await buildRecordMarkdown(row);
  assertShareSize(markdown, shareImageMaxChars());
  try {
    return buildShareCard({ report, markdown, colors: options.colors });
  } catch {
    throw ApiError.of("generation_failed", `The share card of record ${row.id} could not be generated`);
  }
}

/** "<code>-report-<id>.png" with the code reduced to safe ASCII (indices: sh000001, reviews: MARKET). */
export function shareImageFilename(displayCode: string, id: number): string {
  const code =
    displayCode
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .replace(/^[._]+/, "")
      .slice(0, 40) || "record";
  return `${code}-report-${id}.png`;
}

// GET /api/v1/history/{record_id}/share-image-html – the share card as a self-contained HTML page.
export async function getShareImageHtml(recordId: string, options: ShareOptions = {}): Promise<string> {
  const row = await getHistoryRecordOrThrow(recordId);
  const card = await shareCardOf(row, options);
  try {
    return renderShareHtml(card);
  } catch {
    throw ApiError.of("generation_failed", `The share page of record ${row.id} could not be generated`);
  }
}

export interface SharePng {
  png: Uint8Array;
  filename: string;
  /** Served from the repeat memo (repeat-memo.ts) without reading the record or building the card. */
  reused: boolean;
}

export interface SharePngDeps extends PngDeps {
  /** Tests: draws the card in place of the renderer threads, still through the PNG cache and the repeat memo. */
  render?: (card: ShareCard) => Promise<Uint8Array>;
}

function assertPngEnabled(): void {
  if (!getSettings().SHARE_IMAGE_PNG_ENABLED) {
    throw ApiError.of(
      "share_image_unavailable",
      "The share image renderer is turned off (SHARE_IMAGE_PNG_ENABLED=false)",
    );
  }
}

// GET /api/v1/history/{record_id}/share-image – the share card as a PNG download.
export async function getShareImagePng(
  recordId: string,
  options: ShareOptions = {},
  deps: SharePngDeps = {},
): Promise<SharePng> {
  // A renderer pool handed in (tests) is always called; the service's own images are cached per card content.
  if (deps.pool) {
    const row = await getHistoryRecordOrThrow(recordId);
    const card = await shareCardOf(row, options);
    assertPngEnabled();
    return {
      png: await renderSharePng(card, deps),
      filename: shareImageFilename(row.displayCode, row.id),
      reused: false,
    };
  }
  const memoKey = `${recordId}\u0000${options.colors ?? ""}`;
  const remembered = rememberedShare(memoKey);
  if (remembered && sameStamp(await readShareStamp(), remembered.stamp)) {
    const png = keptSharePng(remembered.cardKey);
    if (png) {
      assertPngEnabled();
      return { png, filename: remembered.filename, reused: true };
    }
  }
  // The stamp is read before the record that the card is built from, so a change in between is stored under the
  // older stamp and built again on the next request: never served past a change.
  const stamp = await readShareStamp();
  const row = await getHistoryRecordOrThrow(recordId);
  const card = await shareCardOf(row, options);
  assertPngEnabled();
  const key = cardKey(card);
  const render = deps.render ?? renderSharePng;
  const png = await cachedSharePng(
    card,
    async () => {
      const started = performance.now();
      const drawn = await render(card);
      logger.info({ record_id: row.id, ms: Math.round(performance.now() - started) }, "share image drawn");
      return drawn;
    },
    key,
  );
  const filename = shareImageFilename(row.displayCode, row.id);
  rememberShare(memoKey, { stamp, cardKey: key, filename });
  return { png, filename, reused: false };
}

/**
 * The share path's reads, once, for a record that cannot exist (ids start at 1; no query id is "0"):
 * Prisma compiles a query's plan the first time it meets the query's shape, which a profile of the first share image
 * after a start put at ~14 ms for the record's read alone (the first request after a start, five service starts
 * each with and without this: median 140 → 122 ms, within this machine's noise). Reads only: nothing written or cached.
 */
export async function warmShareReads(): Promise<void> {
  await findHistoryRecord("0");
  await Promise.all([readShareStamp(), readRecordNews(0)]);
}

/** After start-up, in the background: the share path's reads, then the renderer threads (png.ts). Never throws. */
export async function warmSharePath(): Promise<void> {
  try {
    await warmShareReads();
  } catch (error) {
    logger.warn({ err: error }, "share image reads warm-up failed");
  }
  await warmShareRenderer();
}
