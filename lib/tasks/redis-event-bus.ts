import { randomUUID } from "node:crypto";
import type { ChannelSubscription, RedisConnection } from "@/lib/redis/connection";
import type { TaskEvent, TaskEventBus, TaskEventListener } from "./event-types";

/** A task's events wait at most this long after its creation for its task_created (see deliver). */
const CREATION_GRACE_MS = 3000;
/** Task ids whose task_created was delivered, kept to tell a late event from an early one. */
const MAX_REMEMBERED = 10_000;

interface Envelope {
  /** The bus (one per process) that published the event. */
  origin: string;
  event: TaskEvent;
}

function isEnvelope(value: unknown): value is Envelope {
  const v = value as Partial<Envelope> | null;
  return (
    typeof v?.origin === "string" && typeof v.event?.type === "string" && typeof v.event.task?.task_id === "string"
  );
}

/**
 * The task event bus of several replicas: every event also goes out on a Redis channel, so an SSE
 * client on replica A sees the tasks replica B runs.
 *
 * Exactly once per listener: an event is handed to this process's listeners at once, in the publisher's turn (as
 * with one process), and published to Redis tagged with this bus's origin id; what comes back from the channel with
 * our own origin is our echo and is dropped, everything else is another replica's event and is delivered once.
 * Local delivery therefore never waits for, or depends on, Redis: while Redis is unreachable events simply stay on
 * this replica (the connection logs the outage once), and SSE clients catch up from the database snapshot when they
 * reconnect.
 */
export class RedisTaskEventBus implements TaskEventBus {
  private readonly origin = randomUUID();
  private readonly subscription: ChannelSubscription;
  /** Tasks this process is creating: other replicas' events of each, held until its task_created is out. */
  private readonly creating = new Map<string, TaskEvent[]>();
  /** Tasks whose task_created this process's listeners have had (the latest MAX_REMEMBERED). */
  private readonly created = new Set<string>();
  /** A new task's events that came before its task_created, each task's until then or until its grace ends. */
  private readonly beforeCreated = new Map<string, { events: TaskEvent[]; timer: NodeJS.Timeout }>();

  constructor(
    private readonly connection: RedisConnection,
    private readonly channel: string,
    /** This process's own fan-out (the in-process bus). */
    private readonly local: TaskEventBus,
    /** How long after its creation a task's events may wait for its task_created. */
    private readonly creationGraceMs = CREATION_GRACE_MS,
  ) {
    this.subscription = connection.subscribe(channel, (message) => this.receive(message));
  }

  publish(event: TaskEvent): void {
    this.deliver(event);
    if (event.type === "task_created") this.deliverHeld(event.task.task_id);
    const envelope: Envelope = { origin: this.origin, event };
    this.connection.publish(this.channel, JSON.stringify(envelope));
  }

  private receive(message: string): void {
    let envelope: unknown;
    try {
      envelope = JSON.parse(message);
    } catch {
      return;
    }
    if (!isEnvelope(envelope) || envelope.origin === this.origin) return;
    const held = this.creating.get(envelope.event.task.task_id);
    if (held) held.push(envelope.event);
    else this.deliver(envelope.event);
  }

  /**
   * To this process's listeners, a task's task_created first: the replica that runs a task may claim it before its
   * creator has announced it, and the two publish on the channel independently, so a started or progress event of
   * a task created moments ago waits here for its task_created (at most until the grace after its creation ends:
   * with Redis down, or a task created before this process listened, none will come).
   */
  private deliver(event: TaskEvent): void {
    const id = event.task.task_id;
    if (event.type === "task_created") {
      this.remember(id);
      this.local.publish(event);
      this.flushBeforeCreated(id);
      return;
    }
    const waiting = this.beforeCreated.get(id);
    if (waiting) {
      waiting.events.push(event);
      return;
    }
    const graceLeft = Date.parse(event.task.created_at) + this.creationGraceMs - Date.now();
    if (this.created.has(id) || !(graceLeft > 0)) {
      this.local.publish(event);
      return;
    }
    const timer = setTimeout(() => this.flushBeforeCreated(id), Math.min(graceLeft, this.creationGraceMs));
    timer.unref();
    this.beforeCreated.set(id, { events: [event], timer });
  }

  private flushBeforeCreated(id: string): void {
    const waiting = this.beforeCreated.get(id);
    if (!waiting) return;
    this.beforeCreated.delete(id);
    clearTimeout(waiting.timer);
    for (const event of waiting.events) this.local.publish(event);
  }

  private remember(id: string): void {
    this.created.delete(id);
    this.created.add(id);
    if (this.created.size > MAX_REMEMBERED) this.created.delete(this.created.values().next().value!);
  }

  expectCreation(taskId: string): () => void {
    if (!this.creating.has(taskId)) this.creating.set(taskId, []);
    return () => this.deliverHeld(taskId);
  }

  /** The held events of a task, in the order they came, once its creation is out (or did not happen). */
  private deliverHeld(taskId: string): void {
    const held = this.creating.get(taskId);
    if (!held) return;
    this.creating.delete(taskId);
    for (const event of held) this.deliver(event);
  }

  subscribe(listener: TaskEventListener): () => void {
    return this.local.subscribe(listener);
  }

  listenerCount(): number {
    return this.local.listenerCount();
  }

  /** Resolves once other replicas' events can arrive (tests; at start-up the first ones may be missed). */
  subscribed(): Promise<void> {
    return this.subscription.subscribed;
  }

  /** Stops receiving other replicas' events (tests; a process keeps its bus for life). */
  close(): void {
    this.subscription.unsubscribe();
    for (const id of [...this.beforeCreated.keys()]) this.flushBeforeCreated(id);
  }
}
