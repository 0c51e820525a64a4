// Next calls register() once per server process: the place where background workers start (never on a
// first request). The Edge runtime has no database, so only the Node.js runtime starts them.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startTaskRuntime } = await import("./lib/tasks/runtime");
  await startTaskRuntime();
  const { startAlertScheduler } = await import("./lib/alerts/scheduler");
  startAlertScheduler();
  const { startDailyScheduler } = await import("./lib/schedule/scheduler");
  startDailyScheduler();
}
