import { ApiError } from "@/lib/errors/api-error";
import { logger } from "@/lib/log/logger";
import type { ShareCard } from "./card";
import { SHARE_FONT_FAMILY } from "./fonts";
import { CARD_WIDTH, layoutShareCard, type CardNode } from "./layout";
import { sharePool, type SharePool } from "./render-pool";
import { WARM_CARD } from "./warm-card";
import { warmReportCards } from "./warm-reports";

// Spec 4.3 rule 6: the share card as a PNG, drawn from the same layout as the HTML page by stock satori and stock
// resvg on a renderer thread (render-pool.ts). Any failure to load or run the renderer is 503 share_image_unavailable.

export interface PngDeps {
  /** The renderer threads; tests hand in a pool whose threads or fonts are missing or fail. */
  pool?: SharePool;
}

/** satori reads React-element-shaped objects: { type, props: { style, children } }. */
export function toSatoriElement(node: CardNode): unknown {
  const [first] = node.children;
  const children = typeof first === "string" ? first : (node.children as CardNode[]).map(toSatoriElement);
  return { type: node.type, key: null, props: { style: node.style, children } };
}

function renderOrThrow(card: ShareCard, pool: SharePool): Promise<Uint8Array> {
  return pool.render(toSatoriElement(layoutShareCard(card, SHARE_FONT_FAMILY)), CARD_WIDTH);
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
 * Rounds of warm-up cards on every renderer thread: V8 optimises satori's layout code only after it has run many
 * times, so a thread's first cards take several times as long as later ones.
 */
const WARM_ROUNDS = 3;

/**
 * Starts the renderer threads and has each draw a card of every block kind in both scripts and weights, then two
 * real reports' cards (warm-reports.ts), a few times, so the first share image after a start does not pay for it.
 * Run in the background from instrumentation.ts; a failure is only logged (the request path reports its own).
 */
export async function warmShareRenderer(deps: PngDeps = {}): Promise<void> {
  const started = performance.now();
  try {
    const pool = deps.pool ?? sharePool();
    for (let i = 0; i < WARM_ROUNDS; i++) {
      // Built again each round: the Markdown and card code warms up with the renderer. As many cards at once as
      // threads, so every thread warms.
      const cards = [WARM_CARD, ...(await warmReportCards())];
      await Promise.all(
        Array.from({ length: pool.size }).flatMap(() => cards.map((card) => renderOrThrow(card, pool))),
      );
    }
    logger.info({ ms: Math.round(performance.now() - started) }, "share image renderer warmed");
  } catch (error) {
    logger.warn({ err: error }, "share image renderer warm-up failed");
  }
}
