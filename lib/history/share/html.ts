import type { ShareCard } from "./card";
import { CARD_WIDTH, layoutShareCard, type CardNode, type CardStyle } from "./layout";

// Spec 4.3 rule 5: the share card as one self-contained HTML page for local screenshotting. Deterministic
// (the same card gives the same bytes: no clock, no random ids, styles in a fixed order) and inert: every
// text is escaped, there is no script, no link and no external resource, so the page works under
// SHARE_HTML_CSP (only inline styles and data: images).

export const SHARE_HTML_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

/** The browser's fonts for the page; the PNG uses the fonts shipped with the service (fonts.ts). */
const HTML_FONT_STACK =
  '"Noto Sans SC", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", "Source Han Sans SC", sans-serif';

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text and attribute values: the five HTML-significant characters become entities. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

// CSS properties whose numbers carry no unit.
const UNITLESS = new Set(["fontWeight", "lineHeight", "flexGrow", "flexShrink", "opacity", "zIndex"]);

function cssValue(key: string, value: string | number): string {
  if (typeof value === "number") return UNITLESS.has(key) || value === 0 ? String(value) : `${value}px`;
  return value;
}

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`);
}

export function styleAttribute(style: CardStyle): string {
  return Object.entries(style)
    .map(([key, value]) => `${kebab(key)}:${cssValue(key, value)}`)
    .join(";");
}

function renderNode(node: CardNode): string {
  const style = styleAttribute(node.style);
  const open = style ? `<div style="${escapeHtml(style)}">` : "<div>";
  const [first] = node.children;
  const inner = typeof first === "string" ? escapeHtml(first) : (node.children as CardNode[]).map(renderNode).join("");
  return `${open}${inner}</div>`;
}

/** The card as a complete HTML document (UTF-8, CARD_WIDTH px wide). */
export function renderShareHtml(card: ShareCard): string {
  const body = renderNode(layoutShareCard(card, HTML_FONT_STACK));
  const lang = card.lang === "zh" ? "zh-CN" : "en";
  return [
    "<!DOCTYPE html>",
    `<html lang="${lang}">`,
    "<head>",
    '<meta charset="utf-8">',
    `<meta name="viewport" content="width=${CARD_WIDTH}">`,
    // The price colour convention the card is drawn in, for readers of the page: red_up or green_up.
    `<meta name="price-colors" content="${card.colors}">`,
    `<title>${escapeHtml(card.title)}</title>`,
    `<style>*{box-sizing:border-box;margin:0;padding:0}html,body{background:#f2f4f7}body{width:${CARD_WIDTH}px}</style>`,
    "</head>",
    `<body>${body}</body>`,
    "</html>",
    "",
  ].join("\n");
}
