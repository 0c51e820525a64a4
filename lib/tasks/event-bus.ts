import { redisConnection } from "@/lib/redis/connection";
import { redisKey } from "@/lib/redis/keys";
import { RedisTaskEventBus } from "./redis-event-bus";
import type { TaskEvent, TaskEventBus, TaskEventListener } from "./event-types";

export {
  TASK_EVENT_TYPES,
  type TaskEvent,
  type TaskEventBus,
  type TaskEventListener,
  type TTaskEventType,
} from "./event-types";

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
