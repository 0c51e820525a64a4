// Next calls register() once per server process: the place where background workers start (never on a
// first request). The Edge runtime has no database, so only the Node.js runtime starts them.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // With PostgreSQL the settings come from the config document row: loaded (the env file imported on the very
  // first start) before anything reads a setting, then followed for other replicas' changes.
  const { startConfigSync } = await import("./lib/config/config-sync");
  await startConfigSync();
  // With REDIS_URL the connection opens now, so it is ready before the first request, event or tick needs it.
  const { redisConnection } = await import("./lib/redis/connection");
  redisConnection();
  // Each domain registers the runner of its task kind before the queue's workers claim anything.
  (await import("./lib/analysis/task-runner")).registerAnalysisTasks();
  (await import("./lib/market-review/task-runner")).registerMarketReviewTasks();
  (await import("./lib/backtest/task-runner")).registerBacktestTasks();
  (await import("./lib/screening/task-runner")).registerScreeningTasks();
  (await import("./lib/bots/task-runner")).registerBotTasks();
  const { startTaskRuntime } = await import("./lib/tasks/runtime");
  // On shutdown, queued notifications go out once the workers have stopped (the last tasks may have queued some).
  const { settleNotifications } = await import("./lib/notify");
  await startTaskRuntime({ afterStop: settleNotifications });
  const { startAlertScheduler } = await import("./lib/alerts/scheduler");
  startAlertScheduler();
  const { startDailyScheduler } = await import("./lib/schedule/scheduler");
  startDailyScheduler();
  // Idle until TELEGRAM_BOT_MODE=polling (read each round, so switching it on needs no restart).
  (await import("./lib/bots/telegram-polling")).startTelegramPolling();
  // The share PNG's modules, fonts and reads warm up in the background, after start-up (never holding /health).
  const { getSettings } = await import("@/lib/settings/settings");
  const settings = getSettings();
  if (settings.SHARE_IMAGE_PNG_ENABLED && settings.SHARE_IMAGE_WARMUP) {
    setTimeout(() => void import("./lib/history/share/share-image").then((m) => m.warmSharePath()), 250).unref();
  }
}
