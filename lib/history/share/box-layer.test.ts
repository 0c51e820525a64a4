import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { storedMarketReview, storedReport } from "../test-records";
import { boxOf, paintBoxes, paintOver, takeBoxes } from "./box-layer.mjs";
import { SHARE_FONT_FAMILY } from "./fonts";
import { GlyphLayer } from "./glyph-layer.mjs";
import { CARD_WIDTH, layoutShareCard } from "./layout";
import { cardOf, difference, differencesFromReference, painterSetup, stripsOf } from "./painting-test-kit";
import { toSatoriElement } from "./png";
import type { Satori } from "./satori-paths.mjs";

// The renderer threads paint the card's boxes themselves (box-layer.mjs) and leave resvg only what else a
// strip holds. The card must look as when resvg paints every box, and the painting order must stay the SVG's.

const svgOf = (width: number, height: number, body: string) =>
  `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">${body}</svg>`;

type Corner = [number, number];
type Corners = [Corner, Corner, Corner, Corner];
const every = (r: number): Corners => [[r, r], [r, r], [r, r], [r, r]];

/** satori's rounded rectangle, corners [rx, ry] from the top left clockwise. */
function rounded(x: number, y: number, w: number, h: number, [tl, tr, br, bl]: Corners, fill = "#1e3a8a"): string {
  const arc = ([rx, ry]: Corner, dx: number, dy: number) => `a${rx},${ry} 0 0 1 ${dx},${dy}`;
  return (
    `<path x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}" d="M${x + tl[0]},${y} h${w - tl[0] - tr[0]} ${arc(tr, tr[0], tr[1])} ` +
    `v${h - tr[1] - br[1]} ${arc(br, -br[0], br[1])} h${br[0] + bl[0] - w} ${arc(bl, -bl[0], -bl[1])} v${bl[1] + tl[1] - h} ${arc(tl, tl[0], -tl[1])}"/>`
  );
}

/** resvg's RGBA pixels (opaque here) as RGB. */
function rgbOf(rgba: Uint8Array): Uint8Array {
  const rgb = new Uint8Array((rgba.length / 4) * 3);
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) rgb.set(rgba.subarray(i, i + 3), o);
  return rgb;
}

/** Paints taken boxes, then resvg's picture of the rest if any, onto rows of `width` RGB pixels (no filter bytes). */
function paintTaken(taken: NonNullable<ReturnType<typeof takeBoxes>>, width: number, height: number, rest?: Uint8Array): Uint8Array {
  const rows = new Uint8Array(width * height * 3);
  paintBoxes(taken.boxes, rows, width * 3, 0, width, height, new Uint16Array(width));
  if (rest !== undefined) paintOver(rows, width * 3, 0, width, height, rest);
  return rows;
}

const attributes = (text: string) => new Map([...text.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k!, v!]));

describe("the share card's boxes painted without resvg", () => {
  it("every card looks as when resvg paints every box: only anti-aliased corner pixels differ, and little", async () => {
    for (const { title, share, largest } of await differencesFromReference({ drawBoxes: false })) {
      // A box misplaced by a pixel, a missing box or a wrong colour differs along a whole edge or area by up to 255;
      // measured: 0.03-0.04 % of bytes, by at most 16-51 (the edge pixels of rounded corners).
      expect(share, title).toBeLessThan(0.002);
      expect(largest, title).toBeLessThanOrEqual(64);
    }
  }, 180_000);

  it("a stock card's and a market review's strips leave resvg nothing to draw once text and boxes are taken", async () => {
    const { satori, fonts } = await painterSetup();
    const layer = new GlyphLayer(Resvg);
    const { report: review } = await storedMarketReview("zh");
    for (const strip of [...stripsOf(cardOf(storedReport("zh"))), ...stripsOf(cardOf(review))]) {
      const svg = layer.takeRuns(await layer.capture(() => satori(strip as Parameters<Satori>[0], { width: CARD_WIDTH, fonts })));
      const taken = takeBoxes(svg, CARD_WIDTH);
      expect(taken).not.toBeNull();
      expect(taken!.boxes.length).toBeGreaterThan(1);
      expect(taken!.rest).toBeNull();
    }
  }, 60_000);

  it("edge coverage follows resvg's rasteriser at fractional positions, elliptical and mixed corners", () => {
    const W = 300;
    const H = 200;
    const shapes = [
      rounded(20.5, 10.25, 80, 45, every(22.5)),
      rounded(150.3, 60.7, 14, 14, every(7)),
      rounded(30, 80, 200, 100, [[40, 20], [10, 30], [0, 0], [25, 25]]),
      `<rect x="10.4" y="190.6" width="100.3" height="5.5" fill="#d92d20"/>`,
      // Corners that end exactly on a sub-scanline's centre (7.125 and 19.875): the rows between corners share a span.
      rounded(240.25, 3.125, 40, 20.75, every(4)),
      rounded(240.5, 30.125, 50, 30.5, [[6, 4], [3, 2.5], [5, 4.25], [2, 1]]),
    ];
    for (const shape of shapes) {
      const svg = svgOf(W, H, `<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>${shape}`);
      const expected = new Resvg(svg, { font: { loadSystemFonts: false } }).render().pixels;
      const taken = takeBoxes(svg, W)!;
      expect(taken.boxes).toHaveLength(2);
      expect(taken.rest).toBeNull();
      const { share, largest } = difference(rgbOf(expected), paintTaken(taken, W, H));
      // Measured: at most 1.6 per mille of bytes, by at most 29 (resvg draws an arc as short straight segments).
      expect(share, shape).toBeLessThan(0.003);
      expect(largest, shape).toBeLessThanOrEqual(40);
    }
  });

  it("only plain boxes are taken: an opacity, a stroke, a one-sided border path or a clip keeps an element resvg's", () => {
    expect(boxOf("rect", attributes(`x="1" y="2" width="3" height="4" fill="#abcdef"`))).toMatchObject({ x: 1, y: 2, width: 3, height: 4, color: [0xab, 0xcd, 0xef] });
    expect(boxOf("rect", attributes(`x="1" y="2" width="3" height="4" fill="#abc"`))?.color).toEqual([0xaa, 0xbb, 0xcc]);
    expect(boxOf("rect", attributes(`x="1" y="2" width="3" height="4" fill="#abcdef" opacity="0.5"`))).toBeNull();
    expect(boxOf("rect", attributes(`x="1" y="2" width="3" height="4" fill="url(#g)"`))).toBeNull();
    expect(boxOf("rect", attributes(`x="1" y="2" width="0" height="4" fill="#abcdef"`))).toBeNull();
    const pill = attributes(rounded(916, 84, 80, 45, every(22.5)).slice(6, -2));
    expect(boxOf("path", pill)?.radii).toEqual(every(22.5));
    // satori's bottom border: a stroked open path, not a closed rounded rectangle.
    expect(boxOf("path", attributes(`width="448" height="50" fill="none" stroke="#eaecf0" stroke-width="2" d="M528,161 A0,0 0 0 1 528,161 h-448 a0,0 0 0 1 0,0"`))).toBeNull();
    // The path's own corners must close the rectangle its attributes state.
    expect(boxOf("path", new Map([...pill, ["width", "81"]]))).toBeNull();
    const clipped = svgOf(100, 100, `<defs><clipPath id="c"><rect x="0" y="0" width="50" height="50"/></clipPath></defs><g clip-path="url(#c)"><rect x="0" y="0" width="100" height="100" fill="#000000"/></g>`);
    expect(takeBoxes(clipped, 100)).toMatchObject({ boxes: [], rest: clipped });
  });

  it("boxes after anything resvg draws stay in the SVG, so the painting order is the SVG's", () => {
    const under = `<rect x="0" y="0" width="100" height="100" fill="#ffffff"/>`;
    const line = `<path fill="none" stroke="#000000" stroke-width="2" d="M0,50 h100"/>`;
    const over = `<rect x="40" y="40" width="20" height="20" fill="#ff0000"/>`;
    const faint = `<rect x="70" y="40" width="20" height="20" fill="#0000ff" fill-opacity="0.5"/>`;
    const mask = `<mask id="m"><rect x="0" y="0" width="100" height="100" fill="#fff"/></mask>`;
    const svg = svgOf(100, 100, `${mask}${under}<g>${line}</g>${over}${faint}`);
    const taken = takeBoxes(svg, 100)!;
    expect(taken.boxes).toHaveLength(1); // the box under the line; a mask's content is no box of the picture
    expect(taken.rest).toBe(svgOf(100, 100, `${mask}<g>${line}</g>${over}${faint}`));
    // Painted as the strip painter does (boxes, then resvg's picture of the rest over them), it is resvg's picture:
    // the red box covers the line where they cross, and the half-transparent blue one lets white through.
    const pixels = paintTaken(taken, 100, 100, new Resvg(taken.rest!, { font: { loadSystemFonts: false } }).render().pixels);
    const expected = rgbOf(new Resvg(svg, { font: { loadSystemFonts: false } }).render().pixels);
    expect(Buffer.from(pixels).equals(expected)).toBe(true);
    const at = (x: number, y: number) => [...pixels.subarray((y * 100 + x) * 3, (y * 100 + x) * 3 + 3)];
    expect(at(50, 50)).toEqual([255, 0, 0]);
    expect(at(10, 50)).toEqual([0, 0, 0]);
    expect(at(80, 45)).toEqual([127, 127, 255]);
    // A strip not as wide as asked is left to resvg whole.
    expect(takeBoxes(svg, 50)).toBeNull();
  });

  it("a rule under a row of cells of unequal height lies at the bottom of the taller cell, as the border did", async () => {
    const { satori, fonts } = await painterSetup();
    const root = layoutShareCard(cardOf(storedReport("zh")), SHARE_FONT_FAMILY);
    const svg = await satori(toSatoriElement(root) as Parameters<Satori>[0], { width: CARD_WIDTH, fonts });
    const rules = [...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="1" fill="#eaecf0"\/>/g)].map(([, x, y, w]) => ({ x: Number(x), y: Number(y), w: Number(w) }));
    expect(rules.length).toBeGreaterThan(10);
    // Two cells side by side (the indicator pairs): each rule has a partner at the same height across the gap.
    const left = rules.filter((r) => r.x === 80 && r.w < 500);
    expect(left.length).toBeGreaterThan(4);
    for (const rule of left) expect(rules.some((r) => r.x > 500 && r.y === rule.y), `rule at ${rule.y}`).toBe(true);
  }, 60_000);
});
