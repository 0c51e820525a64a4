import { describe, expect, it } from "vitest";
import type { TDecisionAction } from "@/lib/analysis/engine/schemas";
import { evidenceVerdict, pooledScope, stockFigures, stockScope, type EvidenceCall } from "./scope";

/**
 * 400 consecutive days; `action` on the days of every other 20-day block (200 calls, 10 blocks, so 20
 * non-overlapping 10-day windows), `other` elsewhere. Returns alternate +1/-1 a day, plus `shift` on the action's days:
 * each group's noise averages exactly 0, so the excess is exactly `shift`.
 */
function series(action: TDecisionAction, shift: number, other: TDecisionAction = "watch", days = 400): EvidenceCall[] {
  return Array.from({ length: days }, (_, i) => {
    const mine = Math.floor(i / 20) % 2 === 0;
    return {
      index: i,
      date: `2020-01-01+${String(i).padStart(3, "0")}`,
      action: mine ? action : other,
      score: mine ? 70 : 40,
      returnPct: (i % 2 === 0 ? 1 : -1) + (mine ? shift : 0),
    };
  });
}

describe("the verdict of §13 on constructed call series", () => {
  it("a long-side action: interval above 0 is an edge, below 0 adverse, across 0 no measurable edge", () => {
    const above = stockScope(series("buy", 3), "buy")!;
    expect(above.mean_excess_pct).toBeCloseTo(3, 10);
    expect(above.ci95_low_pct!).toBeGreaterThan(0);
    expect(above.verdict).toBe("edge");
    expect(stockScope(series("add", -3), "add")!.verdict).toBe("adverse");
    const across = stockScope(series("hold", 0), "hold")!;
    expect(across.mean_excess_pct).toBeCloseTo(0, 10);
    expect(across.ci95_low_pct!).toBeLessThan(0);
    expect(across.ci95_high_pct!).toBeGreaterThan(0);
    expect(across.verdict).toBe("no_measurable_edge");
  });

  it("a short-side action the other way round: interval below 0 is an edge, above 0 adverse", () => {
    expect(stockScope(series("sell", -3), "sell")!.verdict).toBe("edge");
    expect(stockScope(series("reduce", 3), "reduce")!.verdict).toBe("adverse");
    expect(stockScope(series("avoid", 0), "avoid")!.verdict).toBe("no_measurable_edge");
  });

  it("watch claims nothing: only worse days avoided (below 0) count as an edge", () => {
    expect(stockScope(series("watch", -3, "buy"), "watch")!.verdict).toBe("edge");
    expect(stockScope(series("watch", 3, "buy"), "watch")!.verdict).toBe("adverse");
    expect(stockScope(series("watch", 0, "buy"), "watch")!.verdict).toBe("no_measurable_edge");
    expect(stockScope(series("watch", 0, "buy"), "watch")!.hit_rate).toBeNull();
  });

  it("fewer than 20 independent calls is insufficient, however strong the effect; 20 is enough", () => {
    const twenty = stockScope(series("buy", 3), "buy")!;
    expect(twenty.n_calls).toBe(200);
    expect(twenty.n_independent).toBe(20);
    expect(twenty.verdict).toBe("edge");
    const nineteen = stockScope(series("buy", 3, "watch", 370), "buy")!;
    expect(nineteen.n_independent).toBe(19);
    expect(nineteen.verdict).toBe("insufficient");
    expect(evidenceVerdict("buy", 19, 1, 2)).toBe("insufficient");
    expect(evidenceVerdict("buy", 50, null, null)).toBe("insufficient");
  });

  it("hit rates: the calls' share judged a hit against the share of all the stock's days", () => {
    // buy with +3: its days return +4 or +2 (hits, band 2 %); other days ±1 (neutral).
    const s = stockScope(series("buy", 3), "buy")!;
    expect(s.hit_rate).toBe(1);
    expect(s.base_hit_rate).toBe(0.5);
    expect(s.period_start).toBe("2020-01-01+000");
    expect(stockScope(series("buy", 3), "sell")).toBeNull();
  });

  it("pooling weights each stock's excess by its calls and counts every call", () => {
    const a = stockFigures(series("buy", 3), "buy")!;
    const b = stockFigures(series("buy", 0, "watch", 200), "buy")!;
    const pooled = pooledScope("buy", [a, b], "market", "2 test stocks")!;
    expect(pooled.n_calls).toBe(300);
    expect(pooled.n_independent).toBe(30);
    expect(pooled.mean_excess_pct).toBeCloseTo((200 * 3 + 100 * 0) / 300, 10);
    expect(pooled.universe).toBe("2 test stocks");
    expect(pooled.scope).toBe("market");
  });
});
