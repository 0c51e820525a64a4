import { redisConnection } from "@/lib/redis/connection";
import { redisKey } from "@/lib/redis/keys";
import { RedisTaskEventBus } from "./redis-event-bus";
import type { TTaskInfo } from "./schemas";

export const TASK_EVENT_TYPES = ["task_created", "task_started", "task_progress", "task_completed", "task_failed"] as const;
export type TTaskEventType = (typeof TASK_EVENT_TYPES)[number];

export interface TaskEvent {
  type: TTaskEventType;
  task: TTaskInfo;
}

export type TaskEventListener = (event: TaskEvent) => void;

/**
 * Where task events go. The in-process bus serves one server process; the Redis-backed bus (redis-event-bus.ts)
 * has the same interface and carries the events between replicas (each replica's SSE clients see every task).
 */
export interface TaskEventBus {
  publish(event: TaskEvent): void;
  /** Returns the unsubscribe function; calling it twice is harmless. */
  subscribe(listener: TaskEventListener): () => void;
  listenerCount(): number;
  /**
   * Called before this process creates the task `taskId`: until its own task_created is published (or the returned
   * release is called), other replicas' events of that task wait, so no client of this process sees a task start
   * before it was created (another replica may claim the task between the commit and that publish).
   */
  expectCreation(taskId: string): () => void;
}

/** Fan-out is synchronous and never awaits a listener, so one slow consumer cannot delay the others. */
export class InProcessTaskEventBus implements TaskEventBus {
  private readonly listeners = new Set<TaskEventListener>();

  publish(event: TaskEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A broken subscriber must not stop delivery to the rest; it unsubscribes itself on its own error path.
      }
    }
  }

  // One process: only this process publishes, and it announces a task before waking the workers that run it.
  expectCreation(): () => void {
    return () => undefined;
  }

  subscribe(listener: TaskEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  listenerCount(): number {
    return this.listeners.size;
  }
}

const holder = globalThis as typeof globalThis & { __dsaTaskEventBus?: TaskEventBus };

/** With REDIS_URL the replicas share their events through Redis; without it the bus is this process alone. */
function createTaskEventBus(): TaskEventBus {
  const local = new InProcessTaskEventBus();
  const connection = redisConnection();
  return connection ? new RedisTaskEventBus(connection, redisKey("task-events"), local) : local;
}

// One bus per process, shared by route handlers and workers even across Next's module instances.
export function taskEventBus(): TaskEventBus {
  holder.__dsaTaskEventBus ??= createTaskEventBus();
  return holder.__dsaTaskEventBus;
}
