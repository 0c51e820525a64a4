import { describe, expect, it } from "vitest";
import { closedLoopMeanMs, throughputNeededForP99 } from "./harness";

// Issue 23 §2 states its latency goals at a number of connections; in a closed-loop load the mean latency follows from
// the throughput (Little's law), so the history-list bench can show which goals any server on this machine could meet.
describe("closed-loop latency bounds", () => {
  it("mean latency is connections over throughput", () => {
    expect(closedLoopMeanMs(64, 2560)).toBe(25);
    expect(closedLoopMeanMs(32, 800)).toBe(40);
    expect(closedLoopMeanMs(1, 1000)).toBe(1);
  });

  it("a p99 goal at N connections needs N / p99 of throughput, and the two bounds are each other's inverse", () => {
    expect(throughputNeededForP99(64, 25)).toBe(2560);
    expect(throughputNeededForP99(64, 50)).toBe(1280);
    for (const [connections, ms] of [[64, 25], [32, 7], [100, 333]] as const) {
      expect(closedLoopMeanMs(connections, throughputNeededForP99(connections, ms))).toBeCloseTo(ms, 9);
    }
  });
});
