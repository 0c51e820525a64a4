import type { TTaskInfo } from "./schemas";

export const TASK_EVENT_TYPES = ["task_created", "task_started", "task_progress", "task_completed", "task_failed"] as const;
export type TTaskEventType = (typeof TASK_EVENT_TYPES)[number];

export interface TaskEvent {
  type: TTaskEventType;
  task: TTaskInfo;
}

export type TaskEventListener = (event: TaskEvent) => void;

/**
 * Where task events go. The in-process bus serves one server process; a Redis-backed bus with the same
 * interface is the path to several replicas (each replica's SSE clients then see every replica's tasks).
 */
export interface TaskEventBus {
  publish(event: TaskEvent): void;
  /** Returns the unsubscribe function; calling it twice is harmless. */
  subscribe(listener: TaskEventListener): () => void;
  listenerCount(): number;
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

// One bus per process, shared by route handlers and workers even across Next's module instances.
export function taskEventBus(): TaskEventBus {
  holder.__dsaTaskEventBus ??= new InProcessTaskEventBus();
  return holder.__dsaTaskEventBus;
}
