import { registerTaskRunner } from "@/lib/tasks/run-task";
import { answerBotMessage } from "./answer";

/** Registers the runner of "bot" tasks (one received chat message each) with the queue (instrumentation.ts). */
export function registerBotTasks(): void {
  registerTaskRunner("bot", async (row, context) => {
    const { botMessageId } = JSON.parse(row.request) as { botMessageId: number };
    const message = await answerBotMessage(botMessageId, context.signal);
    return { stockName: row.stockName, message };
  });
}
