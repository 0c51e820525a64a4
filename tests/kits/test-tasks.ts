import { newId } from "@/lib/ids";
import type { NewTask } from "@/lib/tasks/store";

// For the task store's tests: a queued analysis task of one stock, as submit.ts creates it.
export function queuedTask(key: string, market = "cn"): NewTask {
  return {
    id: newId(),
    traceId: "trace",
    kind: "analysis",
    stockCode: key,
    stockName: null,
    market,
    assetType: "stock",
    activeKey: `stock:${market}:${key}`,
    request: {},
    originalQuery: null,
    selectionSource: null,
    reportType: "detailed",
    analysisPhase: "auto",
    skills: null,
    region: market,
    message: "queued",
  };
}
