// The share card's boxes (its background and its rounded panels, pills and dots) painted straight into
// the strip's pixels, without resvg. After the glyph layer took the text out, most strips of a card hold nothing but
// such boxes, and resvg's cost for them was almost all canvas overhead: a fresh pixmap per strip, resvg-js's copy of
// it for its crop, and `pixels`' copy into a new buffer (some 10,000 page faults per card; ~125 ms of a ~200 ms card
// on a slow machine), against a few milliseconds to fill the same rows here.
//
// A box is an element satori writes for a div's background: a `<rect>` (square corners) or a `<path>` tracing a
// rectangle with an elliptical arc at each corner, with a hex fill and nothing else (no opacity, clip, mask,
// transform or stroke), outside every group and definition. Boxes are taken out of the SVG in document order up to
// the first element that is anything else; from there on everything stays in the SVG (resvg paints it over the
// boxes, on its own transparent canvas), so the painting order is the SVG's. A strip whose SVG keeps nothing to draw
// needs no resvg canvas at all.
//
// Coverage of a box's edge pixels follows the rasteriser resvg uses (tiny-skia, Skia's supersampling: four
// sub-scanlines per pixel row, a quarter pixel across, 255 for a pixel covered fully), so a box's anti-aliased
// corners look as resvg draws them; box-layer.test.ts compares whole cards both ways.
// Plain ES module: the renderer threads import it from the source tree with plain Node.
import { blendOver, blendPremultipliedOver, hexColor, PIXEL_BYTES } from "./pixel-blend.mjs";

/** Sub-scanlines per pixel row, and positions across a pixel, as Skia's supersampling (SHIFT 2). */
const SUB = 4;
const SUB_SCANLINES = Array.from({ length: SUB }, (_, s) => s);

// An element's start or end tag; attribute values are quoted (satori writes them so), so a ">" inside one is no end.
const TAG = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>/g;
const ATTRIBUTE = /([\w:-]+)="([^"]*)"/g;
/** Elements whose content is not painted where it stands. */
const DEFINITIONS = new Set(["defs", "mask", "clipPath", "filter", "pattern", "symbol", "marker", "linearGradient", "radialGradient"]);
const HEX = /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/;
const NUMBER = "(-?\\d+(?:\\.\\d+)?(?:e-?\\d+)?)";
const ARC = ` a${NUMBER},${NUMBER} 0 0 1 ${NUMBER},${NUMBER}`;
/** satori's rounded rectangle: start after the top-left corner, then each side and the corner at its end. */
const ROUNDED = new RegExp(`^M${NUMBER},${NUMBER} h${NUMBER}${ARC} v${NUMBER}${ARC} h${NUMBER}${ARC} v${NUMBER}${ARC}$`);
const EPSILON = 1e-6;

function attributesOf(text) {
  const attributes = new Map();
  for (const [, name, value] of text.matchAll(ATTRIBUTE)) attributes.set(name, value);
  return attributes;
}

const near = (a, b) => Math.abs(a - b) <= EPSILON;

/**
 * A box from a `<rect>` or `<path>` element's attributes, or null when the element is anything else: its extent,
 * colour and corner radii ([rx, ry] for top-left, top-right, bottom-right, bottom-left).
 */
export function boxOf(tag, attributes) {
  const allowed = tag === "rect" ? 5 : tag === "path" ? 6 : 0;
  if (allowed === 0 || attributes.size !== allowed) return null;
  const fill = attributes.get("fill");
  if (fill === undefined || !HEX.test(fill)) return null;
  const [x, y, width, height] = ["x", "y", "width", "height"].map((name) => Number(attributes.get(name)));
  if (![x, y, width, height].every(Number.isFinite) || width <= 0 || height <= 0) return null;
  const box = { x, y, width, height, color: hexColor(fill.slice(1)), radii: [[0, 0], [0, 0], [0, 0], [0, 0]] };
  if (tag === "rect") return box;
  const d = attributes.get("d");
  const m = d === undefined ? null : ROUNDED.exec(d);
  if (m === null) return null;
  const n = m.slice(1).map(Number);
  const [mx, my, top, tr, trY, trDx, trDy, right, br, brY, brDx, brDy, bottom, bl, blY, blDx, blDy, left, tl, tlY, tlDx, tlDy] = n;
  // Each arc ends where its corner's radii put it, and the sides join up into this element's own rectangle.
  const arcs = [
    [tr, trY, trDx, trDy],
    [br, brY, -brDx, brDy],
    [bl, blY, -blDx, -blDy],
    [tl, tlY, tlDx, -tlDy],
  ];
  if (!arcs.every(([rx, ry, dx, dy]) => rx >= 0 && ry >= 0 && near(rx, dx) && near(ry, dy))) return null;
  if (!near(mx, x + tl) || !near(my, y)) return null;
  if (!near(top, width - tl - tr) || !near(right, height - trY - brY) || !near(bottom, bl + br - width) || !near(left, blY + tlY - height)) return null;
  if (top < -EPSILON || right < -EPSILON || bottom > EPSILON || left > EPSILON) return null;
  box.radii = [
    [tl, tlY],
    [tr, trY],
    [br, brY],
    [bl, blY],
  ];
  return box;
}

/**
 * Takes the boxes out of a satori SVG, as far as they come before anything else drawn. Answers null when the SVG is
 * not one this layer can paint under (its root is not `width`×integer pixels at a plain view box); else the strip's
 * size, the boxes in painting order, and the SVG left for resvg, or null when it holds nothing more to draw.
 */
export function takeBoxes(svg, width) {
  let root = null;
  let definitions = 0;
  const kinds = [];
  let drawn = false;
  const boxes = [];
  const rest = svg.replace(TAG, (match, closing, tag, attributeText, selfClosing) => {
    if (closing) {
      if (kinds.pop() === "definition") definitions -= 1;
      return match;
    }
    if (root === null) {
      root = tag === "svg" ? attributesOf(attributeText) : new Map();
      kinds.push("root");
      return match;
    }
    if (definitions === 0 && !drawn) {
      const box = selfClosing ? boxOf(tag, attributesOf(attributeText)) : null;
      if (box !== null) {
        boxes.push(box);
        return "";
      }
    }
    const kind = DEFINITIONS.has(tag) ? "definition" : tag === "g" && attributeText.trim() === "" ? "group" : "drawn";
    if (kind === "drawn" && definitions === 0) drawn = true;
    if (!selfClosing) {
      kinds.push(kind);
      if (kind === "definition") definitions += 1;
    }
    return match;
  });
  const height = Number(root?.get("height"));
  if (root === null || Number(root.get("width")) !== width || !Number.isInteger(height) || height <= 0) return null;
  if (root.get("viewBox") !== `0 0 ${width} ${height}`) return null;
  return { width, height, boxes, rest: drawn ? rest : null };
}

/** How far a corner of radii (rx, ry) pulls a side in at `dy` from the corner's centre row (0 at the centre). */
function inset(rx, ry, dy) {
  if (ry <= 0 || rx <= 0) return 0;
  const t = dy / ry;
  return t >= 1 ? rx : rx * (1 - Math.sqrt(1 - t * t));
}

/** The box's span on the horizontal line at `yc`, in quarter pixels: [left, right). */
function spanAt(box, yc) {
  const { x, y, width, height, radii } = box;
  const [tl, tr, br, bl] = radii;
  const bottom = y + height;
  const leftIn = yc < y + tl[1] ? inset(tl[0], tl[1], y + tl[1] - yc) : yc > bottom - bl[1] ? inset(bl[0], bl[1], yc - (bottom - bl[1])) : 0;
  const rightIn = yc < y + tr[1] ? inset(tr[0], tr[1], y + tr[1] - yc) : yc > bottom - br[1] ? inset(br[0], br[1], yc - (bottom - br[1])) : 0;
  return [Math.round((x + leftIn) * SUB), Math.round((x + width - rightIn) * SUB)];
}

/** Rows of one colour, to copy from: a solid span is then one copy, not a loop over its pixels. */
const solidRows = new Map();
const MAX_SOLID_ROWS = 64;

function solidRow(r, g, b, width) {
  const key = (r << 16) | (g << 8) | b;
  let row = solidRows.get(key);
  if (row === undefined || row.length < width * PIXEL_BYTES) {
    if (solidRows.size >= MAX_SOLID_ROWS) solidRows.clear();
    row = new Uint8Array(width * PIXEL_BYTES);
    for (let at = 0; at < row.length; at += PIXEL_BYTES) {
      row[at] = r;
      row[at + 1] = g;
      row[at + 2] = b;
    }
    solidRows.set(key, row);
  }
  return row;
}

/**
 * What a box paints on one pixel row, from its four sub-scanlines' spans [left, right) in quarter pixels (null: the
 * sub-scanline misses the box): the whole pixels it fills outright, [solidFrom, solidTo), and the others it touches, as
 * pairs of pixel and coverage; null when it touches none. `cover` is scratch memory of at least `width` entries.
 */
function rowCoverage(spans, width, cover) {
  let full = 0; // sub-scanlines that cover some of the row; the quarter-pixel columns all of them cover: [fullFrom, fullTo)
  let fullFrom = -Infinity;
  let fullTo = Infinity;
  let edgeFrom = Infinity;
  let edgeTo = -Infinity;
  const clamped = spans.map((span) => {
    const from = span === null ? 0 : Math.max(0, span[0]);
    const to = span === null ? 0 : Math.min(width * SUB, span[1]);
    if (to <= from) return null;
    full += 1;
    fullFrom = Math.max(fullFrom, from);
    fullTo = Math.min(fullTo, to);
    edgeFrom = Math.min(edgeFrom, from);
    edgeTo = Math.max(edgeTo, to);
    return [from, to];
  });
  if (edgeTo <= edgeFrom) return null;
  // Whole pixels every sub-scanline covers fully are the box's colour outright.
  let solidFrom = 0;
  let solidTo = 0;
  if (full === SUB && fullTo > fullFrom) {
    solidFrom = Math.ceil(fullFrom / SUB);
    solidTo = Math.max(solidFrom, Math.floor(fullTo / SUB));
  }
  const pxFrom = Math.floor(edgeFrom / SUB);
  const pxTo = Math.ceil(edgeTo / SUB);
  cover.fill(0, pxFrom, pxTo);
  clamped.forEach((span, s) => {
    if (span === null) return;
    // Skia's blitter: a partly covered pixel gets 16 per quarter column; a fully covered one 64, but 63 on the
    // row's last sub-scanline, so four full sub-scanlines sum to 255.
    const most = 64 - ((s + 1) >> 2);
    const [from, to] = span;
    const end = Math.ceil(to / SUB);
    // Only the pixels either side of the solid ones.
    for (let px = Math.floor(from / SUB); px < end; px++) {
      if (px === solidFrom && solidTo > solidFrom) px = solidTo;
      if (px >= end) break;
      const covered = Math.min(to, (px + 1) * SUB) - Math.max(from, px * SUB);
      cover[px] += covered === SUB ? most : covered * 16;
    }
  });
  const edges = [];
  for (let px = pxFrom; px < pxTo; px++) {
    if (px === solidFrom && solidTo > solidFrom) px = solidTo;
    if (px >= pxTo) break;
    const a = Math.min(255, cover[px]);
    if (a > 0) edges.push(px, a);
  }
  return { solidFrom, solidTo, edges };
}

/**
 * Paints the boxes in order onto the strip's rows: `rows` holds `height` rows of `width` RGB pixels, each row
 * starting `offset` bytes into its `stride` (the PNG scanlines). `cover` is scratch memory of at least `width` entries.
 */
export function paintBoxes(boxes, rows, stride, offset, width, height, cover) {
  for (const box of boxes) {
    const [r, g, b] = box.color;
    const solid = solidRow(r, g, b, width);
    // Sub-scanlines j cover the box when round(4y) <= j < round(4(y + height)), each sampled at its centre.
    const firstSub = Math.round(box.y * SUB);
    const endSub = Math.round((box.y + box.height) * SUB);
    const rowFrom = Math.max(0, Math.floor(firstSub / SUB));
    const rowTo = Math.min(height, Math.ceil(endSub / SUB));
    // Between the corners every sub-scanline has the box's full span, so a row whose four sub-scanlines all lie there
    // paints the same coverage: worked out once per box, not again on each row.
    const [tl, tr, br, bl] = box.radii;
    const straightFrom = Math.max(firstSub, Math.ceil((box.y + Math.max(tl[1], tr[1])) * SUB - 0.5));
    const straightTo = Math.min(endSub, Math.floor((box.y + box.height - Math.max(bl[1], br[1])) * SUB - 0.5) + 1);
    const straight = [Math.round(box.x * SUB), Math.round((box.x + box.width) * SUB)];
    const band = rowCoverage(SUB_SCANLINES.map(() => straight), width, cover);
    const spanOfSub = (j) => (j < firstSub || j >= endSub ? null : spanAt(box, (j + 0.5) / SUB));
    for (let row = rowFrom; row < rowTo; row++) {
      const inBand = row * SUB >= straightFrom && row * SUB + SUB <= straightTo;
      const coverage = inBand ? band : rowCoverage(SUB_SCANLINES.map((s) => spanOfSub(row * SUB + s)), width, cover);
      if (coverage === null) continue;
      const line = row * stride + offset;
      const { solidFrom, solidTo, edges } = coverage;
      if (solidTo > solidFrom) rows.set(solid.subarray(0, (solidTo - solidFrom) * PIXEL_BYTES), line + solidFrom * PIXEL_BYTES);
      for (let k = 0; k < edges.length; k += 2) blendOver(rows, line + edges[k] * PIXEL_BYTES, r, g, b, edges[k + 1]);
    }
  }
}

/**
 * Paints resvg's picture of (the rest of) a strip, `width`×`height` premultiplied RGBA as resvg keeps it, over the
 * strip's rows (laid out as for paintBoxes).
 */
export function paintOver(rows, stride, offset, width, height, picture) {
  // A Node buffer may start at any byte of its memory; words need a multiple of four.
  const aligned = picture.byteOffset % 4 === 0 ? picture : new Uint8Array(picture);
  const above = new Uint32Array(aligned.buffer, aligned.byteOffset, width * height);
  for (let y = 0; y < height; y++) {
    const line = y * stride + offset;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const word = above[i];
      if (word === 0) continue;
      const at = line + x * PIXEL_BYTES;
      const a = word >>> 24;
      if (a === 255) {
        rows[at] = word & 255;
        rows[at + 1] = (word >>> 8) & 255;
        rows[at + 2] = (word >>> 16) & 255;
      } else blendPremultipliedOver(rows, at, word & 255, (word >>> 8) & 255, (word >>> 16) & 255, a);
    }
  }
}
