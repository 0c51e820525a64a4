import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { segmentWidths } from "./layout";

// The breadth bar's segments are boxes that fill the bar exactly (layout.ts): no clipping container for resvg.

describe("breadth bar segments", () => {
  it("fill the bar to the pixel, each at least 2 px, in proportion to the counts within rounding", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 60, max: 1000 }),
        (parts, width) => {
          const widths = segmentWidths(parts, width);
          expect(widths).toHaveLength(parts.length);
          expect(widths.reduce((a, b) => a + b, 0)).toBe(width);
          for (const w of widths) expect(w).toBeGreaterThanOrEqual(2);
          const total = parts.reduce((a, b) => a + b, 0);
          // Off from the exact share by the rounding of each (half a pixel), the minimum of 2 px, and what the largest
          // segment takes up for the others: at most a few pixels.
          parts.forEach((n, i) => expect(Math.abs(widths[i]! - (width * n) / total)).toBeLessThanOrEqual(4));
        },
      ),
      { numRuns: 300 },
    );
    expect(segmentWidths([4, 3], 920)).toEqual([526, 394]);
    expect(segmentWidths([1, 10_000], 920)).toEqual([2, 918]);
  });
});
