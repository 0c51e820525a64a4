import type { CardNode, CardStyle } from "./layout";

// The card is cut into horizontal strips that separate renderer threads lay out and rasterise at the
// same time. A cut falls between two children of the card's root column: the upper strip drops the root's bottom
// padding and the lower one its top padding, and the gap between the two children is the lower child's marginTop
// (the root has no flex gap), so each child sits at the same offset from its strip's top as in the whole card and
// the strips stacked are the same picture, pixel for pixel (png.test.ts compares them). Where to cut is a guess
// at each child's height from its text, only to balance the strips' work.

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

function px(value: CardStyle[string] | undefined): number {
  if (typeof value === "number") return value;
  const first = typeof value === "string" ? Number.parseFloat(value) : Number.NaN;
  return Number.isFinite(first) ? first : 0;
}

/** A rough height of a box: its text's lines at its font size, its children stacked (column) or side by side (row). */
export function estimateHeight(node: CardNode, inheritedFontSize = 24): number {
  const { style } = node;
  const fontSize = px(style.fontSize) || inheritedFontSize;
  const edges = px(style.marginTop) + px(style.marginBottom) + 2 * (px(style.padding) || 0) + px(style.paddingTop) + px(style.paddingBottom);
  const [first] = node.children;
  if (typeof first === "string") {
    const lineHeight = px(style.lineHeight) || 1.5;
    const ems = [...first].reduce((sum, ch) => sum + (WIDE.test(ch) ? 1 : 0.55), 0);
    const lines = Math.max(1, Math.ceil((ems * fontSize) / (px(style.width) || 900)));
    return lines * fontSize * lineHeight + edges;
  }
  const heights = (node.children as CardNode[]).map((child) => estimateHeight(child, fontSize));
  const inner = style.flexDirection === "row" ? Math.max(0, ...heights) : heights.reduce((a, b) => a + b, 0);
  return inner + edges;
}

/** The card's root column as at most `parts` strips of consecutive children, of about equal estimated height. */
export function splitCard(root: CardNode, parts: number): CardNode[] {
  const [first] = root.children;
  if (parts <= 1 || typeof first === "string" || root.children.length < 2) return [root];
  const children = root.children as CardNode[];
  const fontSize = px(root.style.fontSize) || 24;
  const heights = children.map((child) => estimateHeight(child, fontSize));
  const total = heights.reduce((a, b) => a + b, 0);
  const groups: CardNode[][] = [[]];
  let done = 0;
  children.forEach((child, i) => {
    const group = groups[groups.length - 1]!;
    // A new strip starts with the child whose middle lies past the current strip's share of the total.
    const target = (total * groups.length) / parts;
    if (group.length > 0 && groups.length < parts && done + heights[i]! / 2 > target) groups.push([child]);
    else group.push(child);
    done += heights[i]!;
  });
  const last = groups.length - 1;
  return groups.map((group, i) => ({
    ...root,
    style: { ...root.style, ...(i > 0 ? { paddingTop: 0 } : {}), ...(i < last ? { paddingBottom: 0 } : {}) },
    children: group,
  }));
}
