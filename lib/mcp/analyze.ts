import type { ToolContext } from "@/lib/agent/tool-definition";
import { analyzeRequest } from "@/lib/analysis/analyze";
import { ZAnalyzeRequest } from "@/lib/analysis/schemas";
import type { TReportType } from "@/lib/analysis/engine/schemas";
import { taskEventBus } from "@/lib/tasks/event-bus";
import type { TaskEvent } from "@/lib/tasks/event-types";
import { getTaskStatus } from "@/lib/tasks/read";
import type { TTaskStatus } from "@/lib/tasks/schemas";

// An analysis asked for over MCP is a queued task like any other (it shows in the task panel and survives a restart);
// while the client waits, the task's progress events become its progress notifications.

/** How often the task row is read as well, for an event another replica published before this one listened. */
const POLL_MS = 1000;

export async function queueAnalysis(
  input: { code: string; report_type?: TReportType; wait: boolean },
  ctx: ToolContext,
): Promise<TTaskStatus> {
  const request = ZAnalyzeRequest.parse({ stock_code: input.code, report_type: input.report_type, async_mode: true });
  // Listening starts before the task exists, so its first events cannot be missed.
  const events: TaskEvent[] = [];
  let wake: () => void = () => {};
  const unsubscribe = taskEventBus().subscribe((event) => {
    events.push(event);
    wake();
  });
  try {
    const outcome = await analyzeRequest(request, `mcp-${Date.now().toString(36)}`, ctx.signal);
    const taskId = "task_id" in outcome.body ? outcome.body.task_id : null;
    if (taskId === null) throw new Error("the analysis was not queued");
    if (!input.wait) return await getTaskStatus(taskId);
    let reported = -1;
    for (;;) {
      for (const event of events.splice(0)) {
        if (event.task.task_id !== taskId) continue;
        if (event.type === "task_completed" || event.type === "task_failed") return await getTaskStatus(taskId);
        if (event.task.progress > reported) {
          reported = event.task.progress;
          await ctx.progress(reported, 100, event.task.message ?? event.type);
        }
      }
      const status = await getTaskStatus(taskId);
      if (status.status !== "pending" && status.status !== "processing") return status;
      ctx.signal?.throwIfAborted();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    unsubscribe();
  }
}
