export { runNow, executeRun } from "./run-watchlist";
export { runDueWork, startDailyScheduler } from "./scheduler";
export { schedulerStatus } from "./status";
export { dueSlot, latestSlot, nextSlot, parseSlotTime } from "./slots";
export * from "./schemas";
