import { describe, expect, it } from "vitest";
import { countPhases, phaseAt, type Completion, type Schedule } from "./alternating-load";

// The request-overhead bench's instrument: subjects take turns in phases of one load; a phase counts only
// its own requests that ended after it settled and before it closed, at the rate over that window.
const schedule: Schedule = { kinds: 2, phaseMs: 1000, settleMs: 200, countFromMs: 2000, cycles: 2 };
const done = (kind: number, start: number, end: number, ok = true): Completion => ({ kind, start, end, ok });

describe("alternating load: phase accounting", () => {
  it("phases cycle through the subjects in order", () => {
    expect(phaseAt(schedule, 0)).toEqual({ kind: 0, index: 0, start: 0 });
    expect(phaseAt(schedule, 1999)).toEqual({ kind: 1, index: 1, start: 1000 });
    expect(phaseAt(schedule, 2500)).toEqual({ kind: 0, index: 2, start: 2000 });
  });

  it("counts a phase's own settled requests as a rate per second of the counted window, per cycle", () => {
    const completions = [
      done(0, 500, 700), // warm-up: not counted
      done(0, 2100, 2150), // ended while the phase settled
      done(0, 2100, 2300),
      done(0, 2900, 2999),
      done(0, 2950, 3100), // ended after its phase closed
      done(1, 3000, 3400),
      done(1, 3000, 3500, false),
      done(0, 4100, 4500), // second cycle
      done(1, 5300, 5400),
      done(1, 6100, 6300), // past the last cycle
    ];
    const counts = countPhases(completions, schedule);
    // Two requests in a 0.8 s window: 2.5 per second.
    expect(counts.rates).toEqual([
      [2.5, 2.5],
      [1.25, 1.25],
    ]);
    // Every request started in a measured phase, counted or not.
    expect(counts.latencies).toEqual([
      [50, 200, 99, 150, 400],
      [400, 500, 100],
    ]);
    expect(counts.failures).toEqual([0, 1]);
    expect(counts.lateShare).toBe(0);
  });

  it("counts a failure anywhere (warm-up included) and the requests that outlived the next phase's settling", () => {
    const completions = [done(0, 100, 300, false), done(0, 2100, 2300), done(1, 3100, 4300), done(1, 3100, 3900)];
    const counts = countPhases(completions, schedule);
    expect(counts.failures).toEqual([1, 0]);
    expect(counts.lateShare).toBeCloseTo(1 / 3);
    expect(() => countPhases([], { ...schedule, countFromMs: 1000 })).toThrow(/whole number of cycles/);
  });
});
