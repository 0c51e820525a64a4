import { logger } from "@/lib/log/logger";
import { LeaderLock } from "@/lib/redis/leader-lock";
import { getSettings } from "@/lib/settings/settings";
import { onShutdown } from "@/lib/shutdown";
import { acceptMessage } from "./inbox";
import { inboundFromUpdate, telegramCall } from "./platforms/telegram";

// TELEGRAM_BOT_MODE=polling: getUpdates in a loop (a long poll of POLL_SECONDS), each message stored before the offset
// moves past it, so a crash part way gets the rest again and the store's unique message id drops what it has.
// With several replicas only the leader polls (Telegram refuses two getUpdates at once with 409).

const POLL_SECONDS = 10;
const IDLE_MS = 5_000;
const MAX_BACKOFF_MS = 60_000;
const log = logger.child({ component: "bots" });
const leader = new LeaderLock("telegram-polling");
const holder = globalThis as typeof globalThis & { __dsaTelegramPolling?: AbortController };

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** One getUpdates call and the messages it brought; returns the next offset. */
export async function pollOnce(offset: number, signal: AbortSignal, timeoutSec = POLL_SECONDS): Promise<number> {
  const answer = await telegramCall(
    "getUpdates",
    { offset, timeout: timeoutSec, allowed_updates: ["message"] },
    signal,
  );
  let next = offset;
  for (const update of Array.isArray(answer.result) ? (answer.result as unknown[]) : []) {
    const id = (update as { update_id?: unknown }).update_id;
    if (typeof id !== "number") continue;
    const inbound = inboundFromUpdate(update);
    if (inbound) await acceptMessage(inbound);
    next = Math.max(next, id + 1);
  }
  return next;
}

export function startTelegramPolling(): void {
  if (holder.__dsaTelegramPolling) return;
  const controller = new AbortController();
  holder.__dsaTelegramPolling = controller;
  onShutdown("telegram-polling", async () => {
    controller.abort();
    await leader.release();
  });
  void (async () => {
    let offset = 0;
    let failures = 0;
    while (!controller.signal.aborted) {
      const settings = getSettings();
      if (settings.TELEGRAM_BOT_MODE !== "polling" || settings.TELEGRAM_BOT_TOKEN === "") {
        await pause(IDLE_MS, controller.signal);
        continue;
      }
      try {
        const pass = await leader.run((POLL_SECONDS + 30) * 1000, () => pollOnce(offset, controller.signal));
        if (pass.ran) offset = pass.value;
        else await pause(IDLE_MS, controller.signal);
        failures = 0;
      } catch (error) {
        if (controller.signal.aborted) break;
        failures += 1;
        log.warn({ err: error, failures }, "telegram getUpdates failed");
        await pause(Math.min(MAX_BACKOFF_MS, 1000 * 2 ** failures), controller.signal);
      }
    }
  })();
}
