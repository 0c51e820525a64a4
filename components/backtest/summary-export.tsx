"use client";

import type { TBacktestSummary } from "@/lib/backtest/schemas";
import { summaryCsv } from "@/lib/backtest/summary-csv";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

export function SummaryExport({
  t,
  summary,
  filename,
}: {
  t: Dictionary["backtestUi"];
  summary: TBacktestSummary;
  filename: string;
}) {
  function download() {
    const url = URL.createObjectURL(new Blob([summaryCsv(summary)], { type: "text/csv;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = filename;
    link.click();
    URL.revokeObjectURL(url);
  }
  return (
    <button
      type="button"
      onClick={download}
      data-testid="summary-export"
      className="h-7 rounded-md border border-line bg-surface px-2.5 text-sm font-medium hover:bg-subtle"
    >
      {t.exportSummaryCsv}
    </button>
  );
}
