import type { TTaskInfo } from "./schemas";

// What a task event bus carries and promises, apart from its two implementations (event-bus.ts in process,
// redis-event-bus.ts between replicas), so that neither imports the other for its types.

export const TASK_EVENT_TYPES = [
  "task_created",
  "task_started",
  "task_progress",
  "task_completed",
  "task_failed",
] as const;
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
