import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { SHARE_FONT_FAMILY } from "./fonts";
import { GlyphLayer } from "./glyph-layer.mjs";
import { CARD_WIDTH } from "./layout";
import { differencesFromReference, paintAll, paintedCards, painterSetup, stripsOf } from "./painting-test-kit";
import type { Satori } from "./satori-paths.mjs";
import { createStripPainter } from "./strip-painter.mjs";
import { WARM_CARD } from "./warm-card";

// The renderer threads draw the card's text from glyphs they rasterised once (glyph-layer.mjs) instead of
// leaving every glyph outline to resvg. The card must look the same, and a card must come out the same to the byte
// whichever thread drew it and whatever it drew before.

describe("the share card's text drawn from rasterised glyphs", () => {
  it("every card looks as when resvg fills each glyph: only glyph edges differ, by at most a quarter pixel's shift", async () => {
    for (const { title, share, mean, largest } of await differencesFromReference({ drawGlyphs: false })) {
      // Text is some 5-8 % of a card's pixels: a glyph left out or misplaced would differ there by up to 255. A glyph
      // moved by up to an eighth of a pixel (quarter-pixel positions) changes only its edge pixels' coverage.
      expect(share, title).toBeLessThan(0.015);
      expect(mean, title).toBeLessThan(0.3);
      expect(largest, title).toBeLessThanOrEqual(96);
    }
  }, 120_000);

  it("a card is the same to the byte from a fresh thread, in another order, with few glyphs kept, and drawn again", async () => {
    const { satori, fonts } = await painterSetup();
    const all = await paintedCards();
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
    const { satori, fonts } = await painterSetup();
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
    const { satori, fonts } = await painterSetup();
    const [strip] = stripsOf(WARM_CARD);
    const layer = new GlyphLayer(Resvg);
    const marked = await layer.capture(() => satori(strip as Parameters<Satori>[0], { width: CARD_WIDTH, fonts }));
    expect(marked).toMatch(/<g><path fill="#[0-9a-f]{6}" d="G0G1/);
    const plain = await satori(strip as Parameters<Satori>[0], { width: CARD_WIDTH, fonts });
    expect(plain).not.toMatch(/ d="[^"]*G\d/);
    expect(plain.length).toBeGreaterThan(marked.length * 5); // the outlines are most of the SVG
  }, 60_000);
});
