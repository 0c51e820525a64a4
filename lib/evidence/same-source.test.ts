import { describe, expect, it } from "vitest";
import { barsFromCloses } from "@/tests/kits/test-bars";
import { sameSourceTail } from "./stock-evidence";

// The engine's record on a stock is computed from one provider's bars only: a stored history whose older part came
// from another source (a sample series before a CSV file was added, say) never mixes into it.
describe("sameSourceTail", () => {
  it("keeps the newest run of bars from the newest bar's source family", () => {
    const bars = barsFromCloses([1, 2, 3, 4, 5, 6]).map((b, i) => ({
      ...b,
      source:
        i < 2 ? ("sample" as const) : i < 3 ? ("csv" as const) : i < 5 ? ("eastmoney" as const) : ("tencent" as const),
    }));
    // Exchange feeds (eastmoney, then tencent) quote the same prices: one run; the CSV and sample rows before are not.
    expect(sameSourceTail(bars).map((b) => b.close)).toEqual([4, 5, 6]);
    const one = bars.map((b) => ({ ...b, source: "csv" as const }));
    expect(sameSourceTail(one)).toHaveLength(6);
    expect(sameSourceTail([])).toEqual([]);
  });
});
