"use client";

import type { ComponentProps } from "react";
import { AnalysisReportView } from "@/components/analysis/report-view";

// The Analyze page's report view, rendered from the History report page (a server component). report-view.tsx
// reads values exported by the chart's client module (MA_LINES), so it has to run on the client side of the
// boundary; this wrapper puts it there. Its props (the report view and the dictionary) are plain data.
export function StoredReportView(props: ComponentProps<typeof AnalysisReportView>) {
  return <AnalysisReportView {...props} />;
}
