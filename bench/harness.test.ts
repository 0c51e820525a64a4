import { describe, expect, it } from "vitest";
import { throughputForMeanLatency } from "./harness";

// The latency goals are stated at a number of connections; in a closed-loop load the mean latency and the
// throughput fix each other (Little's law), so the history-list bench can show which goals a server here could meet.
describe("closed-loop latency and throughput", () => {
  it("N connections waiting L ms on average take N / L requests per millisecond", () => {
    expect(throughputForMeanLatency(64, 25)).toBe(2560);
    expect(throughputForMeanLatency(64, 50)).toBe(1280);
    expect(throughputForMeanLatency(32, 40)).toBe(800);
    expect(throughputForMeanLatency(1, 1)).toBe(1000);
  });
});
