import { Pool } from "undici";
import type { RequestShape } from "./harness";

// The goal is a 10 % bound on a ratio of two throughputs, on a shared machine whose speed swings by a third
// within seconds (session 24: the same bare route gave 322 and 913 req/s in back-to-back 8 s loads; CPU time per
// request swung as much, so the machine itself runs slower, not only our share of it). Loads taken one after another
// put those swings into the ratio. Here the subjects take turns in short phases of one closed-loop load (the same
// connections switch target at each phase), so every subject samples the same stretch of the machine's speed, and a
// ratio is taken within each cycle of phases, then the median over cycles.
//
// A phase counts only requests that started in it and ended after its settling time: by then the requests still in
// flight from the previous phase (another subject's) have all ended, so what a phase counts is its own subject at
// steady state, and its rate is those requests over the time from settling to the phase's end.

export interface AlternatingTarget {
  url: string;
  request?: Pick<RequestShape, "method" | "headers">;
}

export interface AlternatingOptions {
  /** Measured time, after the warm-up. */
  seconds: number;
  connections?: number;
  /** How long each subject holds the connections before the next one takes them. */
  phaseMs?: number;
  /** The start of a phase that is not counted (longer than the slowest request in flight when it starts). */
  settleMs?: number;
  warmupSeconds?: number;
}

/** One finished request: which subject, when it started and ended (ms since the load began), and how it ended. */
export interface Completion {
  kind: number;
  start: number;
  end: number;
  ok: boolean;
}

export interface Schedule {
  kinds: number;
  phaseMs: number;
  settleMs: number;
  /** Phases before this time are warm-up. */
  countFromMs: number;
  cycles: number;
}

export interface PhaseCounts {
  /** rates[cycle][kind]: requests per second of that subject in that cycle's phase. */
  rates: number[][];
  /** Latencies (ms) of every request that started in a measured phase, per subject. */
  latencies: number[][];
  /** Requests that did not answer 2xx, per subject: any, warm-up and settling included. */
  failures: number[];
  /**
   * Share of the requests started in measured phases that ended after the next phase had settled: they were counted
   * by no phase and slowed the next subject's count (the settling time was too short for this run).
   */
  lateShare: number;
}

/** The subject of the phase running at time t (ms), and the phase's start. */
export function phaseAt(
  schedule: Pick<Schedule, "kinds" | "phaseMs">,
  t: number,
): { kind: number; index: number; start: number } {
  const index = Math.floor(t / schedule.phaseMs);
  return { kind: index % schedule.kinds, index, start: index * schedule.phaseMs };
}

/** Each measured cycle's rate per subject, from the requests' start and end times (see the module's comment). */
export function countPhases(completions: readonly Completion[], schedule: Schedule): PhaseCounts {
  const { kinds, phaseMs, settleMs, countFromMs, cycles } = schedule;
  if (countFromMs % (kinds * phaseMs) !== 0)
    throw new Error("countPhases: the warm-up must be a whole number of cycles");
  const counted = Array.from({ length: cycles }, () => new Array<number>(kinds).fill(0));
  const latencies = Array.from({ length: kinds }, () => [] as number[]);
  const failures = new Array<number>(kinds).fill(0);
  const firstPhase = countFromMs / phaseMs;
  let measured = 0;
  let late = 0;
  for (const c of completions) {
    if (!c.ok) failures[c.kind]! += 1;
    const phase = phaseAt(schedule, c.start);
    if (phase.kind !== c.kind || phase.index < firstPhase) continue;
    const cycle = Math.floor((phase.index - firstPhase) / kinds);
    if (cycle >= cycles) continue;
    measured += 1;
    latencies[c.kind]!.push(c.end - c.start);
    if (c.end > phase.start + phaseMs + settleMs) late += 1;
    if (c.end < phase.start + settleMs || c.end > phase.start + phaseMs) continue;
    counted[cycle]![c.kind]! += 1;
  }
  const window = (phaseMs - settleMs) / 1000;
  return {
    rates: counted.map((row) => row.map((n) => n / window)),
    latencies,
    failures,
    lateShare: measured === 0 ? 0 : late / measured,
  };
}

/**
 * A closed-loop load of `connections` concurrent requests whose target changes every phase, cycling through
 * `targets` in their order; `counts` for the measured cycles (those after the warm-up).
 */
export async function alternatingLoad<K extends string>(
  targets: Record<K, AlternatingTarget>,
  options: AlternatingOptions,
): Promise<{ kinds: K[]; counts: PhaseCounts }> {
  const kinds = Object.keys(targets) as K[];
  const phaseMs = options.phaseMs ?? 500;
  // Above the p99 latency of a saturated Next route at 32 connections here (70-100 ms).
  const settleMs = options.settleMs ?? 150;
  const connections = options.connections ?? 32;
  const cycleMs = phaseMs * kinds.length;
  const countFromMs = Math.ceil(((options.warmupSeconds ?? 2) * 1000) / cycleMs) * cycleMs;
  const cycles = Math.max(1, Math.round((options.seconds * 1000) / cycleMs));
  const schedule: Schedule = { kinds: kinds.length, phaseMs, settleMs, countFromMs, cycles };
  const endMs = countFromMs + cycles * cycleMs;

  const parsed = kinds.map((k) => new URL(targets[k].url));
  const pools = new Map<string, Pool>();
  for (const url of parsed)
    if (!pools.has(url.origin)) pools.set(url.origin, new Pool(url.origin, { connections, pipelining: 1 }));
  const completions: Completion[] = [];
  const began = performance.now();
  const clock = () => performance.now() - began;
  // The first failed request ends the load (the bench refuses it anyway): a request refused at once would otherwise
  // loop without yielding until the end, piling up completions.
  let failed = false;
  const worker = async () => {
    for (let start = clock(); start < endMs && !failed; start = clock()) {
      const { kind } = phaseAt(schedule, start);
      const url = parsed[kind]!;
      const request = targets[kinds[kind]!].request ?? {};
      let ok = false;
      try {
        const res = await pools
          .get(url.origin)!
          .request({ path: url.pathname + url.search, method: request.method ?? "GET", headers: request.headers });
        await res.body.dump();
        ok = res.statusCode >= 200 && res.statusCode < 300;
      } catch {
        ok = false;
      }
      completions.push({ kind, start, end: clock(), ok });
      if (!ok) failed = true;
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    await Promise.all([...pools.values()].map((pool) => pool.close()));
  }
  return { kinds, counts: countPhases(completions, schedule) };
}
