import { describe, expect, it } from "vitest";
import { buildMarkdownReport } from "../markdown";
import { storedReport } from "../test-records";
import { buildShareCard } from "./card";
import { layoutShareCard, type CardNode } from "./layout";
import { estimateHeight, splitCard } from "./strips";

// The cut of the card into strips (png.test.ts proves the stacked strips are the whole picture).

const root = layoutShareCard(
  buildShareCard({ report: storedReport("zh"), markdown: buildMarkdownReport({ report: storedReport("zh"), news: [], dataSource: "sample", region: "cn", volumeRatio: null, turnoverRate: null }) }),
  "sans",
);
const kids = root.children as CardNode[];

describe("splitCard", () => {
  it("keeps every child once, in order, and moves the root's padding to the outer ends only", () => {
    for (const parts of [2, 3, 4, 8]) {
      const strips = splitCard(root, parts);
      expect(strips.length).toBeLessThanOrEqual(parts);
      expect(strips.length).toBeGreaterThan(1);
      expect(strips.flatMap((s) => s.children as CardNode[])).toEqual(kids);
      strips.forEach((strip, i) => {
        expect(strip.children.length).toBeGreaterThan(0);
        expect(strip.style.paddingTop).toBe(i === 0 ? undefined : 0);
        expect(strip.style.paddingBottom).toBe(i === strips.length - 1 ? undefined : 0);
        expect({ ...strip.style, paddingTop: undefined, paddingBottom: undefined }).toEqual({ ...root.style, paddingTop: undefined, paddingBottom: undefined });
      });
    }
  });

  it("balances the strips by estimated height: no strip holds more than about twice its share", () => {
    const strips = splitCard(root, 2);
    const heights = strips.map((s) => (s.children as CardNode[]).reduce((sum, c) => sum + estimateHeight(c), 0));
    const total = heights.reduce((a, b) => a + b, 0);
    for (const h of heights) expect(h).toBeLessThan(total * 0.75);
  });

  it("one part, or a root with a single child or text, is the card itself", () => {
    expect(splitCard(root, 1)).toEqual([root]);
    const single: CardNode = { ...root, children: [kids[0]!] };
    expect(splitCard(single, 4)).toEqual([single]);
    const text: CardNode = { type: "div", style: {}, children: ["just text"] };
    expect(splitCard(text, 4)).toEqual([text]);
  });

  it("estimates more lines for longer text in a narrower box, and wide (CJK) characters as a full em", () => {
    const line = (value: string, width: number): CardNode => ({ type: "div", style: { width, fontSize: 20, lineHeight: 1.5 }, children: [value] });
    expect(estimateHeight(line("x", 100))).toBe(30);
    expect(estimateHeight(line("贵".repeat(10), 100))).toBe(60); // 200 px of text in 100 px: two lines
    expect(estimateHeight(line("a".repeat(10), 100))).toBe(60); // 110 px: two lines
    expect(estimateHeight(line("a".repeat(9), 100))).toBe(30); // 99 px: one line
  });
});
