import { describe, expect, it } from "vitest";
import {
  independentMean,
  neweyWestLags,
  neweyWestMean,
  neweyWestMeanDifference,
  nonOverlapping,
  ranks,
  spearman,
  Z95,
} from "./robust-stats";

describe("Newey-West", () => {
  it("the mean's standard error matches the hand-computed long-run variance", () => {
    // u = [-2,-1,0,1,2]: γ0 = 10, γ1 = 4, Bartlett weight 1/2 at lag 1 → (10 + 2·½·4) / 5² = 0.56.
    const e = neweyWestMean([1, 2, 3, 4, 5], 1)!;
    expect(e.estimate).toBe(3);
    expect(e.se).toBeCloseTo(Math.sqrt(0.56), 12);
    expect(e.low).toBeCloseTo(3 - Z95 * Math.sqrt(0.56), 12);
    expect(e.t).toBeCloseTo(3 / Math.sqrt(0.56), 12);
  });

  it("with no lags it is the plain variance of the mean (divided by n), and positive autocorrelation widens it", () => {
    const xs = [1, 2, 3, 4, 5];
    expect(neweyWestMean(xs, 0)!.se).toBeCloseTo(Math.sqrt(10 / 25), 12);
    expect(neweyWestMean(xs, 2)!.se).toBeGreaterThan(neweyWestMean(xs, 0)!.se);
  });

  it("the difference of two groups' means carries the HAC error of the dummy's slope, by hand", () => {
    // y = [1,3,2,6], flagged days 0 and 2: slope = 1.5 - 4.5 = -3; influence scores [-.25, .75, .25, -.75]:
    // Σs² = 1.25 (White), lag-1 products sum to -0.1875, weight ½ → 1.25 - 0.1875 = 1.0625.
    const flags = [true, false, true, false];
    expect(neweyWestMeanDifference([1, 3, 2, 6], flags, 0)!.se).toBeCloseTo(Math.sqrt(1.25), 12);
    const e = neweyWestMeanDifference([1, 3, 2, 6], flags, 1)!;
    expect(e.estimate).toBe(-3);
    expect(e.se).toBeCloseTo(Math.sqrt(1.0625), 12);
    expect(neweyWestMeanDifference([1, 2], [true, true], 1)).toBeNull();
  });

  it("overlapping windows: a 10-day sum of white noise gets an interval about √10 wider than the naive one", () => {
    let seed = 7;
    const noise = Array.from({ length: 4000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648 - 0.5;
    });
    const overlapping = noise.slice(9).map((_, i) => noise.slice(i, i + 10).reduce((s, v) => s + v, 0));
    const naive = neweyWestMean(overlapping, 0)!.se;
    const robust = neweyWestMean(overlapping, neweyWestLags(10))!.se;
    expect(robust / naive).toBeGreaterThan(2.5);
    expect(robust / naive).toBeLessThan(3.6);
  });

  it("lags follow the horizon, never fewer than 9", () => {
    expect(neweyWestLags(10)).toBe(9);
    expect(neweyWestLags(5)).toBe(9);
    expect(neweyWestLags(20)).toBe(19);
  });
});

describe("non-overlapping windows and independent means", () => {
  it("keeps the earliest call and every call at least a horizon after the last kept one", () => {
    expect(nonOverlapping([0, 1, 5, 10, 11, 19, 20, 35], 10)).toEqual([0, 10, 20, 35]);
    expect(nonOverlapping([], 10)).toEqual([]);
  });

  it("the independent mean uses the sample standard deviation over √n", () => {
    const e = independentMean([2, 4, 6, 8])!;
    expect(e.estimate).toBe(5);
    expect(e.se).toBeCloseTo(Math.sqrt(20 / 3 / 4), 12);
    expect(independentMean([1])).toBeNull();
  });
});

describe("Spearman", () => {
  it("ranks ties by their average rank", () => {
    expect(ranks([10, 10, 30, 5])).toEqual([2.5, 2.5, 4, 1]);
  });

  it("matches 1 - 6Σd²/(n(n²-1)) without ties, and is null on a constant side", () => {
    expect(spearman([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.8, 12);
    expect(spearman([1, 2, 3, 4], [40, 30, 20, 10])).toBeCloseTo(-1, 12);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(spearman([1, 2], [1, 2])).toBeNull();
  });
});
