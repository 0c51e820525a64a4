import type { Resvg } from "@resvg/resvg-js";

/** satori's glyphs of a strip, rasterised once per thread and drawn over resvg's picture (glyph-layer.mjs). */
export class GlyphLayer {
  constructor(resvg: typeof Resvg, maxGlyphs?: number);
  placements: unknown[];
  runs: { color: [number, number, number]; opacity: number; ids: number[] }[];
  cache: Map<string, unknown>;
  capture(layout: () => Promise<string>): Promise<string>;
  takeRuns(svg: string): string;
  draw(rows: Uint8Array, width: number, height: number, stride: number, offset: number): void;
}
