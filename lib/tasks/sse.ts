import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { taskEventBus, type TaskEvent, type TaskEventBus } from "./event-bus";
import { toTaskInfo } from "./serialize";
import { activeTasks, type TaskRow } from "./store";

/** Spec 6 wire format: `event:` line, `data:` line (one JSON object), blank line. */
export function encodeSseEvent(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
} as const;

/**
 * Events a client may leave unread before it is dropped: a reader that stopped reading must not make the
 * server hold an ever-growing queue (other clients are never slowed: the bus fans out without waiting).
 */
export const MAX_UNREAD_EVENTS = 1000;

export interface TaskStreamOptions {
  signal?: AbortSignal;
  bus?: TaskEventBus;
  heartbeatMs?: number;
  loadActive?: () => Promise<TaskRow[]>;
}

/**
 * One subscriber of GET /api/v1/analysis/tasks/stream: `connected`, then `task_created` for each task
 * already pending or processing, then live events; a heartbeat after each quiet interval. It subscribes
 * before reading the active tasks so nothing created in between is missed, and unsubscribes when the
 * client goes away (abort or cancel).
 */
export function openTaskStream(options: TaskStreamOptions = {}): ReadableStream<Uint8Array> {
  const bus = options.bus ?? taskEventBus();
  const heartbeatMs = options.heartbeatMs ?? getSettings().SSE_HEARTBEAT_SECONDS * 1000;
  const loadActive = options.loadActive ?? activeTasks;
  const encoder = new TextEncoder();
  let cleanup = () => {};

  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      let heartbeat: NodeJS.Timeout | null = null;
      let live = false;
      const pending: TaskEvent[] = [];
      const announced = new Set<string>();

      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        if (heartbeat) clearTimeout(heartbeat);
        options.signal?.removeEventListener("abort", close);
        try {
          controller.close();
        } catch {
          // already closed or errored by the consumer
        }
      };
      cleanup = close;

      const armHeartbeat = () => {
        if (heartbeat) clearTimeout(heartbeat);
        heartbeat = setTimeout(() => send("heartbeat", { timestamp: now().toISOString() }), heartbeatMs);
      };

      const send = (type: string, data: unknown) => {
        if (closed) return;
        if ((controller.desiredSize ?? 0) < -MAX_UNREAD_EVENTS) {
          close();
          return;
        }
        controller.enqueue(encoder.encode(encodeSseEvent(type, data)));
        armHeartbeat();
      };

      const unsubscribe = bus.subscribe((event) => {
        if (!live) {
          pending.push(event);
          return;
        }
        send(event.type, event.task);
      });
      if (options.signal?.aborted) {
        close();
        return;
      }
      options.signal?.addEventListener("abort", close, { once: true });

      send("connected", { message: "Connected to the task stream" });
      void loadActive()
        .then((rows) => {
          for (const row of rows) {
            announced.add(row.id);
            send("task_created", toTaskInfo(row));
          }
        })
        .catch(() => undefined)
        .finally(() => {
          for (const event of pending) {
            if (event.type === "task_created" && announced.has(event.task.task_id)) continue;
            send(event.type, event.task);
          }
          pending.length = 0;
          live = true;
        });
    },
    cancel() {
      cleanup();
    },
  });
}
