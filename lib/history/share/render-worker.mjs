// One share-card renderer thread (render-pool.ts runs it under piscina). Stock satori lays the card out as SVG,
// stock resvg rasterises it and encodes the PNG; the thread answers the PNG's bytes, moved, not copied.
// Plain ES module, because the built service starts it with plain Node from the source tree.
import { Resvg } from "@resvg/resvg-js";
import { move, workerData } from "piscina";
import satori from "satori";

const fonts = workerData.fonts.map((font) => ({
  ...font,
  data: Buffer.from(font.data.buffer, font.data.byteOffset, font.data.byteLength),
}));

/** @param {{ element: unknown, width: number }} task */
export default async function renderCard({ element, width }) {
  const svg = await satori(element, { width, fonts });
  // No system fonts: satori has already turned every glyph into a path with the shipped fonts.
  const png = new Resvg(svg, { fitTo: { mode: "width", value: width }, font: { loadSystemFonts: false } })
    .render()
    .asPng();
  return move(new Uint8Array(png.buffer, png.byteOffset, png.byteLength));
}
