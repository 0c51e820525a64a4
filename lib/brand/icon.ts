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

// The installed app's icons (the web app manifest, the iPhone home screen). "maskable" ones fill the square: the
// platform cuts them to its own shape, so the mark sits inside the central 80 % safe zone.
const MASKABLE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" fill="#1b5fd6"/>' +
  '<path d="M10 26l6-6 5 4 9-10" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>';

export const APP_ICONS = {
  "icon-192.png": { svg: BRAND_ICON_SVG, px: 192 },
  "icon-512.png": { svg: BRAND_ICON_SVG, px: 512 },
  "maskable-512.png": { svg: MASKABLE_SVG, px: 512 },
  "apple-touch-icon.png": { svg: MASKABLE_SVG, px: 180 },
} as const;
export type AppIconName = keyof typeof APP_ICONS;

const appIcons = new Map<string, Uint8Array>();

/** One of APP_ICONS as a PNG, rendered once per process; null for another name. */
export function appIconPng(name: string): Uint8Array | null {
  if (!(name in APP_ICONS)) return null;
  const icon = APP_ICONS[name as AppIconName];
  let png = appIcons.get(name);
  if (!png) {
    png = new Uint8Array(new Resvg(icon.svg, { fitTo: { mode: "width", value: icon.px } }).render().asPng());
    appIcons.set(name, png);
  }
  return png;
}
