import { ApiError } from "@/lib/http/api-error";
import { logger } from "@/lib/log/logger";
import type { ShareCard } from "./card";
import { loadShareFonts, SHARE_FONT_FAMILY, type ShareFont } from "./fonts";
import { CARD_WIDTH, layoutShareCard, type CardNode } from "./layout";

// Spec 4.3 rule 6: the share card as a PNG, drawn from the same layout as the HTML page. satori lays the
// boxes out and writes SVG with the glyphs as paths; resvg rasterises it (no system fonts: the SVG holds
// every glyph already). Any failure to load or run the renderer is 503 share_image_unavailable.

/** What the PNG needs from satori and resvg; tests swap it for one that is missing or fails. */
export interface ShareRenderer {
  toSvg(element: unknown, options: { width: number; fonts: ShareFont[] }): Promise<string>;
  toPng(svg: string, width: number): Uint8Array;
}

export type RendererLoader = () => Promise<ShareRenderer>;
export type FontLoader = () => Promise<ShareFont[]>;

export interface PngDeps {
  loadRenderer?: RendererLoader;
  loadFonts?: FontLoader;
}

/** satori and @resvg/resvg-js, imported on first use (server external packages, see next.config.ts). */
export const loadDefaultRenderer: RendererLoader = async () => {
  const [{ default: satori }, { Resvg }] = await Promise.all([import("satori"), import("@resvg/resvg-js")]);
  return {
    toSvg: (element, options) => satori(element as Parameters<typeof satori>[0], options),
    toPng: (svg, width) => new Resvg(svg, { fitTo: { mode: "width", value: width }, font: { loadSystemFonts: false } }).render().asPng(),
  };
};

/** satori reads React-element-shaped objects: { type, props: { style, children } }. */
export function toSatoriElement(node: CardNode): unknown {
  const [first] = node.children;
  const children = typeof first === "string" ? first : (node.children as CardNode[]).map(toSatoriElement);
  return { type: node.type, key: null, props: { style: node.style, children } };
}

export async function renderSharePng(card: ShareCard, deps: PngDeps = {}): Promise<Uint8Array> {
  const loadRenderer = deps.loadRenderer ?? loadDefaultRenderer;
  const loadFonts = deps.loadFonts ?? (() => loadShareFonts());
  try {
    const [renderer, fonts] = await Promise.all([loadRenderer(), loadFonts()]);
    const svg = await renderer.toSvg(toSatoriElement(layoutShareCard(card, SHARE_FONT_FAMILY)), { width: CARD_WIDTH, fonts });
    return renderer.toPng(svg, CARD_WIDTH);
  } catch (error) {
    logger.warn({ err: error }, "share image renderer failed");
    throw ApiError.of("share_image_unavailable", "The share image renderer is unavailable");
  }
}

/**
 * Issue 23 §1: loads satori, resvg and the fonts, and lays out a line of Chinese and Latin text in both weights,
 * so the first share image after a start does not pay for it. Run in the background from instrumentation.ts; a
 * failure is only logged (the request path reports its own).
 */
export async function warmShareRenderer(deps: PngDeps = {}): Promise<void> {
  const started = performance.now();
  try {
    const [renderer, fonts] = await Promise.all([(deps.loadRenderer ?? loadDefaultRenderer)(), (deps.loadFonts ?? (() => loadShareFonts()))()]);
    const line = (fontWeight: 400 | 700) => ({ type: "div", key: null, props: { style: { fontWeight }, children: "贵州茅台 600519 买入 观望 +1.23% 止损 Ag" } });
    const element = { type: "div", key: null, props: { style: { display: "flex", flexDirection: "column", fontFamily: SHARE_FONT_FAMILY }, children: [line(400), line(700)] } };
    renderer.toPng(await renderer.toSvg(element, { width: 320, fonts }), 320);
    logger.info({ ms: Math.round(performance.now() - started) }, "share image renderer warmed");
  } catch (error) {
    logger.warn({ err: error }, "share image renderer warm-up failed");
  }
}
