import { Resvg } from "@resvg/resvg-js";

// The service's icon: a rising line on the UI's accent colour. One source for the tab icon of every page, the API
// reference and the JSON endpoints a browser opens (they ask for /favicon.ico).
export const BRAND_ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1b5fd6"/>' +
  '<path d="M6 22l6-6 5 4 9-10" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>';

/** Browsers show a 16–48 px icon; 48 px stays sharp on a high-density screen. */
const ICON_PX = 48;

let png: Uint8Array | null = null;

/** The icon as a PNG (browsers take a PNG served as /favicon.ico), rendered once per process. */
export function brandIconPng(): Uint8Array {
  png ??= new Uint8Array(new Resvg(BRAND_ICON_SVG, { fitTo: { mode: "width", value: ICON_PX } }).render().asPng());
  return png;
}
