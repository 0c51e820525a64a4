import { ApiError } from "@/lib/http/api-error";
import { logger } from "@/lib/log/logger";
import type { ShareCard } from "./card";
import { SHARE_FONT_FAMILY } from "./fonts";
import { CARD_WIDTH, layoutShareCard, type CardNode } from "./layout";
import { encodePng } from "./png-encode";
import { sharePool, type SharePool } from "./render-pool";
import { estimateHeight, splitCard } from "./strips";
import { WARM_CARD } from "./warm-card";
import { warmReportCards } from "./warm-reports";

// Spec 4.3 rule 6: the share card as a PNG, drawn from the same layout as the HTML page. satori lays the
// boxes out and writes SVG; resvg rasterises it (no system fonts: satori shapes the text with the shipped fonts).
// Both run on renderer threads (render-pool.ts), the card cut into strips so that every core draws a
// part of it (strips.ts), and the threads draw the text from glyphs they rasterised once (glyph-layer.mjs); here
// the strips' rows become one PNG (png-encode.ts). Any failure to load or run the renderer is 503
// share_image_unavailable.

export interface PngDeps {
  /** The renderer threads; tests hand in a pool whose threads or fonts are missing or fail. */
  pool?: SharePool;
}

/**
 * Strips per renderer thread: more strips than threads even out a guess of their heights that was off. Three, not two:
 * on two threads a card's wall time fell ~7 % (probe, 4 runs each: 108 → 101 ms), since the last strip left to one
 * thread while the other idles is smaller; more (12 strips) cost more in each strip's own set-up than they saved.
 */
const STRIPS_PER_THREAD = 3;

/** How many strips a card is cut into for a pool of `threads` renderer threads. */
export function stripCount(threads: number): number {
  return threads * STRIPS_PER_THREAD;
}

/** satori reads React-element-shaped objects: { type, props: { style, children } }. */
export function toSatoriElement(node: CardNode): unknown {
  const [first] = node.children;
  const children = typeof first === "string" ? first : (node.children as CardNode[]).map(toSatoriElement);
  return { type: node.type, key: null, props: { style: node.style, children } };
}

async function renderOrThrow(card: ShareCard, pool: SharePool): Promise<Uint8Array> {
  const strips = splitCard(layoutShareCard(card, SHARE_FONT_FAMILY), stripCount(pool.size));
  return encodePng(await pool.render(strips.map(toSatoriElement), CARD_WIDTH, strips.map((strip) => estimateHeight(strip))));
}

export async function renderSharePng(card: ShareCard, deps: PngDeps = {}): Promise<Uint8Array> {
  try {
    return await renderOrThrow(card, deps.pool ?? sharePool());
  } catch (error) {
    logger.warn({ err: error }, "share image renderer failed");
    throw ApiError.of("share_image_unavailable", "The share image renderer is unavailable");
  }
}

/**
 * Renders of the warm-up card: V8 optimises satori's layout code only after it has run many times (on this machine
 * the first real card after 3 warm-up renders took ~245 ms, after 10 ~150 ms, against ~120 ms fully warm).
 */
const WARM_ROUNDS = 10;
/** Renders of each real report card after those (warm-reports.ts). */
const WARM_REPORT_ROUNDS = 6;

/**
 * Starts the renderer threads and has them draw a card of every block kind in both scripts and weights
 * a few times, then two real reports' cards (warm-reports.ts), so the first share image after a start does not pay
 * for it. Run in the background from instrumentation.ts (the drawing is on the threads; the event loop only builds
 * the two small reports a few times); a failure is only logged (the request path reports its own).
 */
export async function warmShareRenderer(deps: PngDeps = {}): Promise<void> {
  const started = performance.now();
  try {
    const pool = deps.pool ?? sharePool();
    for (let i = 0; i < WARM_ROUNDS; i++) await renderOrThrow(WARM_CARD, pool);
    for (let i = 0; i < WARM_REPORT_ROUNDS; i++) {
      // Built again each round: the Markdown and card code warms up with the renderer.
      for (const card of await warmReportCards()) await renderOrThrow(card, pool);
    }
    logger.info({ ms: Math.round(performance.now() - started) }, "share image renderer warmed");
  } catch (error) {
    logger.warn({ err: error }, "share image renderer warm-up failed");
  }
}
