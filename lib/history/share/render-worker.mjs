// Issue 23 §1: one share-card renderer thread (see render-pool.ts). Plain ES module, because the built service
// starts it with plain Node from the source tree. It receives the fonts once (workerData), then strips of the
// card as satori elements; it lays each out (satori), rasterises it (resvg) and answers the strip's rows as PNG
// scanlines (a filter-type byte 0 before each RGBA row), already compressed as its piece of the PNG's zlib stream
// (png-segment.mjs), so the main thread only joins the pieces.
import { parentPort, workerData } from "node:worker_threads";
import { Resvg } from "@resvg/resvg-js";
import { deflateSegment } from "./png-segment.mjs";
import { loadSatori } from "./satori-paths.mjs";

const { satori, fastPaths, failure } = await loadSatori();
if (!fastPaths) process.emitWarning(`share renderer: ${failure ?? "satori's faster glyph-path copy is missing (run npm install)"}; using stock satori`);

const fonts = workerData.fonts.map((font) => ({ ...font, data: Buffer.from(font.data.buffer, font.data.byteOffset, font.data.byteLength) }));

// The scanline buffer is kept between strips: a fresh 4-15 MB buffer each time is memory the system must hand over
// page by page again.
let scanBuffer = new Uint8Array(0);

async function renderStrip(element, width) {
  const svg = await satori(element, { width, fonts });
  const image = new Resvg(svg, { fitTo: { mode: "width", value: width }, font: { loadSystemFonts: false } }).render();
  const rowBytes = image.width * 4;
  const pixels = image.pixels;
  const size = image.height * (rowBytes + 1);
  if (scanBuffer.length < size) scanBuffer = new Uint8Array(size);
  const scanlines = scanBuffer.subarray(0, size);
  for (let y = 0; y < image.height; y++) {
    // Filter type 0 (none): the card is flat colour and text, which deflate packs well unfiltered. Written on every
    // row, since the kept buffer may hold pixels of an earlier strip there.
    scanlines[y * (rowBytes + 1)] = 0;
    scanlines.set(pixels.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
  }
  return { width: image.width, height: image.height, ...deflateSegment(scanlines) };
}

parentPort.on("message", async ({ id, element, width }) => {
  try {
    const strip = await renderStrip(element, width);
    parentPort.postMessage({ id, ...strip }, [strip.deflated.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
