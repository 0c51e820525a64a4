"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { TTaskInfo, TTaskListResponse } from "@/lib/tasks/schemas";

// The client side of the task queue: one EventSource on GET /api/v1/analysis/tasks/stream
// (spec 6) merged with GET /api/v1/analysis/tasks on every (re)connect, so tasks that finished while the
// connection was down still show their final state. Tasks are kept by task_id.

export const TASK_STREAM_URL = "/api/v1/analysis/tasks/stream";
export const TASK_LIST_URL = "/api/v1/analysis/tasks";
export const TASK_EVENT_TYPES = [
  "task_created",
  "task_started",
  "task_progress",
  "task_completed",
  "task_failed",
] as const;

/** connecting: first connection; open: `connected` received; reconnecting: the connection dropped and is being re-opened. */
export type StreamConnection = "connecting" | "open" | "reconnecting";

/** Final states: the task will not change any more. */
export const FINISHED_STATUSES: ReadonlySet<TTaskInfo["status"]> = new Set(["completed", "failed", "cancelled"]);

export function isFinished(task: Pick<TTaskInfo, "status">): boolean {
  return FINISHED_STATUSES.has(task.status);
}

/** How many queue-view tasks to load on each (re)connect (the API allows 1–100). */
const LIST_LIMIT = 50;
/** Backoff when the browser gave up on the EventSource (readyState CLOSED: an HTTP error, not a network drop). */
const RETRY_MS = [1000, 2000, 5000, 10_000, 15_000];

export interface TaskStream {
  /** Newest first (created_at, then task_id). */
  tasks: TTaskInfo[];
  connection: StreamConnection;
  /** How many times the stream has connected (1 after the first `connected`). */
  connects: number;
  /** Re-reads the queue view (GET /api/v1/analysis/tasks) and merges it. */
  refresh: () => Promise<void>;
}

interface Entry {
  task: TTaskInfo;
  /** performance.now() of the last stream event about this task. */
  streamedAt: number;
}

function parseTask(data: string): TTaskInfo | null {
  try {
    const value: unknown = JSON.parse(data);
    if (!value || typeof value !== "object") return null;
    const task = value as TTaskInfo;
    return typeof task.task_id === "string" && typeof task.status === "string" ? task : null;
  } catch {
    return null;
  }
}

function sorted(entries: Map<string, Entry>): TTaskInfo[] {
  return [...entries.values()]
    .map((e) => e.task)
    .sort((a, b) =>
      a.created_at === b.created_at ? a.task_id.localeCompare(b.task_id) : a.created_at < b.created_at ? 1 : -1,
    );
}

export function useTaskStream(): TaskStream {
  const entries = useRef(new Map<string, Entry>());
  const [tasks, setTasks] = useState<TTaskInfo[]>([]);
  const [connection, setConnection] = useState<StreamConnection>("connecting");
  const [connects, setConnects] = useState(0);
  const mounted = useRef(true);

  const publish = useCallback(() => {
    if (mounted.current) setTasks(sorted(entries.current));
  }, []);

  // A stream event is the newest word on its task (events of one connection arrive in order).
  const applyEvent = useCallback(
    (task: TTaskInfo) => {
      const previous = entries.current.get(task.task_id)?.task;
      entries.current.set(task.task_id, { task: { ...previous, ...task }, streamedAt: performance.now() });
      publish();
    },
    [publish],
  );

  const refresh = useCallback(async () => {
    const askedAt = performance.now();
    let list: TTaskListResponse;
    try {
      const res = await fetch(`${TASK_LIST_URL}?limit=${LIST_LIMIT}`, {
        credentials: "same-origin",
        cache: "no-store",
      });
      if (!res.ok) return;
      list = (await res.json()) as TTaskListResponse;
    } catch {
      return;
    }
    for (const task of list.tasks) {
      const known = entries.current.get(task.task_id);
      // The list is a snapshot taken when it was asked for: a stream event that arrived since is newer.
      if (known && known.streamedAt > askedAt) continue;
      entries.current.set(task.task_id, { task: { ...known?.task, ...task }, streamedAt: known?.streamedAt ?? 0 });
    }
    publish();
  }, [publish]);

  useEffect(() => {
    mounted.current = true;
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;
    let everConnected = false;

    const onTaskEvent = (event: MessageEvent<string>) => {
      const task = parseTask(event.data);
      if (task) applyEvent(task);
    };

    const open = () => {
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      source?.close();
      const es = new EventSource(TASK_STREAM_URL);
      source = es;
      es.addEventListener("connected", () => {
        failures = 0;
        everConnected = true;
        setConnection("open");
        setConnects((n) => n + 1);
        // Active tasks come as task_created right after `connected`; the list adds the ones that finished
        // while we were away (and, on the first connect, the recently finished ones).
        void refresh();
      });
      for (const type of TASK_EVENT_TYPES) es.addEventListener(type, onTaskEvent as EventListener);
      es.onerror = () => {
        if (source !== es) return;
        setConnection(everConnected ? "reconnecting" : "connecting");
        // CONNECTING: the browser retries by itself. CLOSED: it gave up (an HTTP error); retry with backoff.
        if (es.readyState === EventSource.CLOSED) {
          const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
          failures++;
          retryTimer = setTimeout(open, delay);
        }
      };
    };

    // Back online: reconnect at once instead of waiting for the browser's retry delay.
    const onOnline = () => {
      if (source?.readyState !== EventSource.OPEN) open();
    };

    open();
    window.addEventListener("online", onOnline);
    return () => {
      mounted.current = false;
      window.removeEventListener("online", onOnline);
      if (retryTimer) clearTimeout(retryTimer);
      source?.close();
      source = null;
    };
  }, [applyEvent, refresh]);

  return { tasks, connection, connects, refresh };
}
