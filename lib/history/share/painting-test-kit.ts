import { Resvg } from "@resvg/resvg-js";
import { expect } from "vitest";
import { buildMarkdownReport } from "../markdown";
import type { TAnalysisReport } from "../schemas";
import { storedMarketReview, storedReport } from "../test-records";
import { buildShareCard, type ShareCard } from "./card";
import { loadShareFonts, SHARE_FONT_FAMILY, type ShareFont } from "./fonts";
import { CARD_WIDTH, layoutShareCard } from "./layout";
import { toSatoriElement } from "./png";
import { loadSatori, type Satori } from "./satori-paths.mjs";
import { createStripPainter, type StripPainter } from "./strip-painter.mjs";
import { splitCard } from "./strips";
import { WARM_CARD } from "./warm-card";
import { warmReportCards } from "./warm-reports";

// What the tests of the share card's own painting (glyph-layer.test.ts, box-layer.test.ts) share: the
// cards they paint both ways, and how two pictures of a card are compared.

export async function painterSetup(): Promise<{ satori: Satori; fonts: ShareFont[] }> {
  const { satori, fastPaths } = await loadSatori();
  expect(fastPaths).toBe(true); // the glyph layer needs the writer the install replaced
  return { satori, fonts: await loadShareFonts() };
}

export function cardOf(report: TAnalysisReport): ShareCard {
  const markdown = buildMarkdownReport({ report, news: [], dataSource: "eastmoney", region: "cn", volumeRatio: 1.23, turnoverRate: 0.45 });
  return buildShareCard({ report, markdown });
}

/**
 * The warm-up card (every block kind), a stored stock report's and a market review's card; with DSA_EXHAUSTIVE=1
 * (`npm run test:exhaustive`) the warm reports' cards too, which add more of the same blocks.
 */
export async function paintedCards(): Promise<ShareCard[]> {
  const { report: review } = await storedMarketReview("zh");
  const more = process.env.DSA_EXHAUSTIVE === "1" ? await warmReportCards() : [];
  return [WARM_CARD, cardOf(storedReport("zh")), cardOf(review), ...more];
}

export function stripsOf(card: ShareCard): unknown[] {
  return splitCard(layoutShareCard(card, SHARE_FONT_FAMILY), 6).map(toSatoriElement);
}

/** A card's strips painted one after another, their scanlines joined. */
export async function paintAll(paint: StripPainter, strips: unknown[]): Promise<Buffer> {
  const rows: Buffer[] = [];
  for (const strip of strips) rows.push(Buffer.from((await paint(strip, CARD_WIDTH)).scanlines));
  return Buffer.concat(rows);
}

/** How two pictures of the same size differ: the share of bytes that differ, their mean difference, the largest. */
export function difference(expected: Uint8Array, actual: Uint8Array): { share: number; mean: number; largest: number } {
  expect(actual.length).toBe(expected.length);
  let differing = 0;
  let total = 0;
  let largest = 0;
  for (let i = 0; i < expected.length; i++) {
    const d = Math.abs(expected[i]! - actual[i]!);
    if (d === 0) continue;
    differing += 1;
    total += d;
    largest = Math.max(largest, d);
  }
  return { share: differing / expected.length, mean: total / expected.length, largest };
}

/**
 * Every painted card drawn by the renderer threads' painter and by one with some of its own painting left to resvg
 * (`reference`: drawGlyphs or drawBoxes false): how each card's two pictures differ.
 */
export async function differencesFromReference(reference: { drawGlyphs?: boolean; drawBoxes?: boolean }) {
  const { satori, fonts } = await painterSetup();
  const painter = createStripPainter({ satori, fonts, Resvg });
  const resvgPainter = createStripPainter({ satori, fonts, Resvg, ...reference });
  const out = [];
  for (const card of await paintedCards()) {
    const strips = stripsOf(card);
    out.push({ title: card.title, ...difference(await paintAll(resvgPainter, strips), await paintAll(painter, strips)) });
  }
  return out;
}
