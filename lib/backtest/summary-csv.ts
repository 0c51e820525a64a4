import type { TBacktestSummary } from "./schemas";

// The summary as CSV: one row per horizon and group (every action, both sides, all calls) with the plain and the
// robust figures, for a spreadsheet.

const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? "" : String(v));

export function summaryCsv(summary: TBacktestSummary): string {
  const head = [
    "horizon",
    "group",
    "count",
    "hit",
    "miss",
    "neutral",
    "hit_rate_pct",
    "mean_return_pct",
    "median_return_pct",
    "independent",
    "excess_pct",
    "nw_low_pct",
    "nw_high_pct",
    "nw_t",
    "nonoverlap_low_pct",
    "nonoverlap_high_pct",
  ];
  const rows: (string | number | null)[][] = [];
  for (const h of summary.horizons) {
    const robust = new Map((h.robust?.rows ?? []).map((r) => [r.group, r]));
    const groups = [
      ...h.by_action.map((a) => [a.action, a] as const),
      ["long_side", h.long_side] as const,
      ["short_side", h.short_side] as const,
    ];
    for (const [group, s] of groups) {
      const r = robust.get(group);
      rows.push([
        h.horizon,
        group,
        s.count,
        s.hit,
        s.miss,
        s.neutral,
        s.hit_rate_pct,
        s.mean_return_pct,
        s.median_return_pct,
        r?.independent ?? null,
        r?.excess_pct ?? null,
        r?.nw_low_pct ?? null,
        r?.nw_high_pct ?? null,
        r?.nw_t ?? null,
        r?.nonoverlap_low_pct ?? null,
        r?.nonoverlap_high_pct ?? null,
      ]);
    }
    rows.push([h.horizon, "all", h.all.count, null, null, null, null, h.all.mean_return_pct, null]);
    if (h.robust?.score_rank)
      rows.push([
        h.horizon,
        "score_rank_rho",
        h.robust.score_rank.count,
        null,
        null,
        null,
        null,
        h.robust.score_rank.rho,
      ]);
  }
  return [head, ...rows].map((r) => r.map(cell).join(",")).join("\n") + "\n";
}
