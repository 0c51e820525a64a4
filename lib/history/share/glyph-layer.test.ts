import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { buildMarkdownReport } from "../markdown";
import { storedReport } from "../test-records";
import { buildShareCard } from "./card";
import { loadShareFonts, SHARE_FONT_FAMILY, type ShareFont } from "./fonts";
import { GlyphLayer } from "./glyph-layer.mjs";
import { CARD_WIDTH, layoutShareCard } from "./layout";
import { toSatoriElement } from "./png";
import { loadSatori, type Satori } from "./satori-paths.mjs";
import { createStripPainter, type StripPainter } from "./strip-painter.mjs";
import { splitCard } from "./strips";
import { WARM_CARD } from "./warm-card";
import { warmReportCards } from "./warm-reports";

// Issue 23 §1: the renderer threads draw the card's text from glyphs they rasterised once (glyph-layer.mjs) instead of
// leaving every glyph outline to resvg. The card must look the same, and a card must come out the same to the byte
// whichever thread drew it and whatever it drew before.

async function setup(): Promise<{ satori: Satori; fonts: ShareFont[] }> {
  const { satori, fastPaths } = await loadSatori();
  expect(fastPaths).toBe(true); // the glyph layer needs the writer the install replaced
  return { satori, fonts: await loadShareFonts() };
}

async function paintAll(paint: StripPainter, strips: unknown[]): Promise<Buffer> {
  const rows: Buffer[] = [];
  for (const strip of strips) rows.push(Buffer.from((await paint(strip, CARD_WIDTH)).scanlines));
  return Buffer.concat(rows);
}

function stripsOf(card: Parameters<typeof layoutShareCard>[0]): unknown[] {
  return splitCard(layoutShareCard(card, SHARE_FONT_FAMILY), 6).map(toSatoriElement);
}

async function cards() {
  const report = storedReport("zh");
  const markdown = buildMarkdownReport({ report, news: [], dataSource: "eastmoney", region: "cn", volumeRatio: 1.23, turnoverRate: 0.45 });
  return [WARM_CARD, buildShareCard({ report, markdown }), ...(await warmReportCards())];
}

describe("issue 23 §1: the share card's text drawn from rasterised glyphs", () => {
  it("every card looks as when resvg fills each glyph: only glyph edges differ, by at most a quarter pixel's shift", async () => {
    const { satori, fonts } = await setup();
    const glyphs = createStripPainter({ satori, fonts, Resvg });
    const outlines = createStripPainter({ satori, fonts, Resvg, drawGlyphs: false });
    for (const card of await cards()) {
      const strips = stripsOf(card);
      const expected = await paintAll(outlines, strips);
      const actual = await paintAll(glyphs, strips);
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
      // Text is some 5-8 % of a card's pixels: a glyph left out or misplaced would differ there by up to 255. A glyph
      // moved by up to an eighth of a pixel (quarter-pixel positions) changes only its edge pixels' coverage.
      expect(differing / expected.length, card.title).toBeLessThan(0.015);
      expect(total / expected.length, card.title).toBeLessThan(0.3);
      expect(largest, card.title).toBeLessThanOrEqual(96);
    }
  }, 120_000);

  it("a card is the same to the byte from a fresh thread, in another order, with few glyphs kept, and drawn again", async () => {
    const { satori, fonts } = await setup();
    const all = await cards();
    const first = createStripPainter({ satori, fonts, Resvg });
    const expected = [];
    for (const card of all) expected.push(await paintAll(first, stripsOf(card)));
    const kept = first.glyphsKept();
    expect(kept).toBeGreaterThan(500);
    // Drawn again by the same thread: every glyph is kept, none is rasterised anew.
    for (const [i, card] of all.entries()) expect((await paintAll(first, stripsOf(card))).equals(expected[i]!)).toBe(true);
    expect(first.glyphsKept()).toBe(kept);
    // A fresh thread that meets the glyphs in another order, on other sheets, in other company.
    const fresh = createStripPainter({ satori, fonts, Resvg });
    for (const [i, card] of [...all.entries()].reverse()) {
      const strips = stripsOf(card).reverse();
      const rows: Buffer[] = [];
      for (const strip of strips) rows.unshift(Buffer.from((await fresh(strip, CARD_WIDTH)).scanlines));
      expect(Buffer.concat(rows).equals(expected[i]!), `card ${i}`).toBe(true);
    }
    // A thread that keeps few glyphs evicts between strips, never one a strip is about to draw.
    const small = createStripPainter({ satori, fonts, Resvg, maxGlyphs: 60 });
    for (const [i, card] of all.entries()) expect((await paintAll(small, stripsOf(card))).equals(expected[i]!)).toBe(true);
    expect(small.glyphsKept()).toBeLessThan(kept);
  }, 120_000);

  it("text not drawn plainly (slanted by a transform, or under a shadow) is left to resvg, as outlines", async () => {
    const { satori, fonts } = await setup();
    const style = { display: "flex", flexDirection: "column", width: CARD_WIDTH, padding: 40, backgroundColor: "#ffffff", fontFamily: SHARE_FONT_FAMILY };
    const text = (extra: Record<string, unknown>, content: string) => ({ type: "div", key: null, props: { style: { fontSize: 32, color: "#101828", ...extra }, children: content } });
    const element = {
      type: "div",
      key: null,
      props: { style, children: [text({ transform: "rotate(4deg)" }, "转动的文字 Rotated"), text({ textShadow: "2px 2px 3px #98a2b3" }, "有阴影 Shadowed")] },
    };
    const layer = new GlyphLayer(Resvg);
    const svg = layer.takeRuns(await layer.capture(() => satori(element as Parameters<Satori>[0], { width: CARD_WIDTH, fonts })));
    expect(layer.placements.length).toBeGreaterThan(20);
    expect(layer.runs).toEqual([]); // nothing taken out of the SVG
    expect(svg).not.toMatch(/ d="[^"]*G\d/); // every marker is an outline again
    const glyphs = createStripPainter({ satori, fonts, Resvg });
    const outlines = createStripPainter({ satori, fonts, Resvg, drawGlyphs: false });
    expect((await paintAll(glyphs, [element])).equals(await paintAll(outlines, [element]))).toBe(true);
  }, 60_000);

  it("satori's writer gives the layer a marker per glyph only while a strip is captured", async () => {
    const { satori, fonts } = await setup();
    const [strip] = stripsOf(WARM_CARD);
    const layer = new GlyphLayer(Resvg);
    const marked = await layer.capture(() => satori(strip as Parameters<Satori>[0], { width: CARD_WIDTH, fonts }));
    expect(marked).toMatch(/<g><path fill="#[0-9a-f]{6}" d="G0G1/);
    const plain = await satori(strip as Parameters<Satori>[0], { width: CARD_WIDTH, fonts });
    expect(plain).not.toMatch(/ d="[^"]*G\d/);
    expect(plain.length).toBeGreaterThan(marked.length * 5); // the outlines are most of the SVG
  }, 60_000);
});
