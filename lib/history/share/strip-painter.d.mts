import type { Resvg } from "@resvg/resvg-js";
import type { Satori } from "./satori-paths.mjs";

export interface PaintedStrip {
  width: number;
  height: number;
  /** Valid until the painter paints its next strip. */
  scanlines: Uint8Array;
}

export function createStripPainter(options: {
  satori: Satori;
  fonts: unknown[];
  Resvg: typeof Resvg;
  drawGlyphs?: boolean;
  drawBoxes?: boolean;
  maxGlyphs?: number;
}): StripPainter;

export type StripPainter = ((element: unknown, width: number) => Promise<PaintedStrip>) & { glyphsKept(): number };
