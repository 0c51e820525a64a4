// One share-card renderer thread (see render-pool.ts). Plain ES module, because the built service
// starts it with plain Node from the source tree. It receives the fonts once (workerData), then strips of the
// card as satori elements, one at a time (the pool hands a thread its next strip only after its answer); it paints
// each (strip-painter.mjs: satori, resvg, and its own glyphs for the text) and answers the strip's PNG scanlines,
// already compressed as its piece of the PNG's zlib stream (png-segment.mjs), so the main thread only joins them.
import { parentPort, workerData } from "node:worker_threads";
import { Resvg } from "@resvg/resvg-js";
import { deflateSegment } from "./png-segment.mjs";
import { loadSatori } from "./satori-paths.mjs";
import { createStripPainter } from "./strip-painter.mjs";

const { satori, fastPaths, failure } = await loadSatori();
if (!fastPaths) process.emitWarning(`share renderer: ${failure ?? "satori's faster glyph-path copy is missing (run npm install)"}; using stock satori`);

const fonts = workerData.fonts.map((font) => ({ ...font, data: Buffer.from(font.data.buffer, font.data.byteOffset, font.data.byteLength) }));

const paintStrip = createStripPainter({ satori, fonts, Resvg });

async function renderStrip(element, width) {
  const strip = await paintStrip(element, width);
  return { width: strip.width, height: strip.height, ...deflateSegment(strip.scanlines) };
}

parentPort.on("message", async ({ id, element, width }) => {
  try {
    const strip = await renderStrip(element, width);
    parentPort.postMessage({ id, ...strip }, [strip.deflated.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
