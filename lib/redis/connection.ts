import Redis from "ioredis";
import { getSettings } from "@/lib/settings/settings";
import { logger } from "@/lib/log/logger";

// The process's way to Redis: one connection for commands and one for pub/sub (a connection that
// subscribes can do nothing else). Redis is never required: a command that cannot go now fails at once instead of
// queueing (no offline queue, a short timeout), callers fall back to what one process does alone, and ioredis keeps
// reconnecting in the background. An outage is logged once, when it starts, and once more when Redis is back.

const COMMAND_TIMEOUT_MS = 2000;
const MAX_RECONNECT_DELAY_MS = 5000;
// How often a noted outage checks whether Redis answers again.
const PROBE_MS = 1000;

export type MessageHandler = (message: string) => void;

export interface ChannelSubscription {
  /** Resolves once Redis confirms the subscription (never, while Redis is unreachable). */
  subscribed: Promise<void>;
  /** Calling it twice is harmless. */
  unsubscribe(): void;
}

interface Channel {
  handlers: Set<MessageHandler>;
  confirmed: Promise<void>;
  confirm: () => void;
}

/** host:port/db only: the URL may carry a password, which must not reach a log line. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "6379"}${u.pathname && u.pathname !== "/" ? u.pathname : ""}`;
  } catch {
    return "(unparsable REDIS_URL)";
  }
}

/** A channel's name on the server for a deployment on database `db` (see RedisConnection.channelName). */
export function scopedChannel(name: string, db: number): string {
  return `${name}@db${db}`;
}

export class RedisConnection {
  readonly client: Redis;
  private subscriber: Redis | null = null;
  private readonly channels = new Map<string, Channel>();
  private outage = false;
  private probe: NodeJS.Timeout | null = null;
  private everReady = false;
  private closed = false;

  constructor(readonly url: string) {
    this.client = this.open("commands");
  }

  private open(role: "commands" | "events"): Redis {
    const client = new Redis(this.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: COMMAND_TIMEOUT_MS,
      // Subscriptions are renewed by us on every "ready", so none is lost to a failed first attempt.
      autoResubscribe: false,
      retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS),
      connectionName: `dsa-${role}`,
    });
    client.on("error", (error: Error) => this.degraded(error));
    client.on("ready", () => this.recovered());
    return client;
  }

  /**
   * Notes that Redis could not be used (a connection error or a failed command). The first note of an outage is
   * logged as a warning; the rest of it stays quiet, so a down Redis cannot flood the log.
   */
  degraded(error?: unknown): void {
    // Not yet connected for the first time is start-up, not an outage: a failed connect reports itself.
    if (this.outage || this.closed || (error === undefined && !this.everReady)) return;
    this.outage = true;
    this.probeUntilRecovered();
    logger.warn(
      {
        redis: describeUrl(this.url),
        err: error instanceof Error ? error.message : error === undefined ? undefined : String(error),
      },
      "Redis unavailable: live task events reach only this replica's clients, rate limits and locks are per process until it is back",
    );
  }

  private recovered(): void {
    this.everReady = true;
    if (this.client.status !== "ready" || (this.subscriber && this.subscriber.status !== "ready")) return;
    if (this.outage && !this.closed)
      logger.info({ redis: describeUrl(this.url) }, "Redis available again: live cross-replica features restored");
    this.outage = false;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }

  // An outage noted from a failed command (a timeout while the event loop was busy, say) leaves the socket up,
  // so no "ready" event would ever end it: a ping while the connections look ready tells whether Redis answers.
  private probeUntilRecovered(): void {
    if (this.probe) return;
    this.probe = setInterval(() => {
      if (this.closed) {
        clearInterval(this.probe!);
        this.probe = null;
        return;
      }
      if (this.client.status !== "ready") return;
      this.client.ping().then(
        () => this.recovered(),
        () => undefined,
      );
    }, PROBE_MS);
    this.probe.unref();
  }

  /** The command connection when it can take a command this instant (not while connecting or reconnecting). */
  readyClient(): Redis | null {
    return this.client.status === "ready" ? this.client : null;
  }

  /**
   * The command connection, waiting up to `timeoutMs` while it is still making its first connection (a lock taken
   * at start-up should not run locally just because the socket is a few milliseconds old); null when unusable.
   */
  async usableClient(timeoutMs = COMMAND_TIMEOUT_MS): Promise<Redis | null> {
    if (this.readyClient() || this.outage || this.closed) return this.readyClient();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.client.off("ready", done);
        this.client.off("error", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      this.client.once("ready", done);
      this.client.once("error", done);
    });
    return this.readyClient();
  }

  /** True while Redis is known to be unreachable (after the first failure, until it is back). */
  isDegraded(): boolean {
    return this.outage;
  }

  /**
   * The name a channel has on the server. Pub/sub ignores the database number, so two deployments on one Redis
   * server (each on its own database) would hear each other's task events: the number is part of the name.
   */
  channelName(name: string): string {
    return scopedChannel(name, this.client.options.db ?? 0);
  }

  /** Publishes on `name` (scoped by channelName) when Redis is usable now; a failure only marks the outage. */
  publish(name: string, message: string): void {
    const client = this.readyClient();
    if (!client) return this.degraded();
    client.publish(this.channelName(name), message).catch((error: unknown) => this.degraded(error));
  }

  /**
   * Delivers every message published on `channel` (by any process, this one included) to `handler`. Channels are
   * shared: one SUBSCRIBE per channel however many handlers listen, dropped when the last one leaves.
   */
  subscribe(channelName: string, handler: MessageHandler): ChannelSubscription {
    const name = this.channelName(channelName);
    const subscriber = this.eventConnection();
    let channel = this.channels.get(name);
    if (!channel) {
      let confirm = () => {};
      const confirmed = new Promise<void>((resolve) => (confirm = resolve));
      channel = { handlers: new Set(), confirmed, confirm };
      this.channels.set(name, channel);
      if (subscriber.status === "ready") this.sendSubscribe([name]);
    }
    channel.handlers.add(handler);
    const own = channel;
    return {
      subscribed: own.confirmed,
      unsubscribe: () => {
        if (!own.handlers.delete(handler) || own.handlers.size > 0 || this.channels.get(name) !== own) return;
        this.channels.delete(name);
        if (subscriber.status === "ready") subscriber.unsubscribe(name).catch((error: unknown) => this.degraded(error));
      },
    };
  }

  private eventConnection(): Redis {
    if (this.subscriber) return this.subscriber;
    const subscriber = this.open("events");
    subscriber.on("ready", () => this.sendSubscribe([...this.channels.keys()]));
    subscriber.on("message", (name: string, message: string) => {
      for (const handler of [...(this.channels.get(name)?.handlers ?? [])]) {
        try {
          handler(message);
        } catch (error) {
          // One broken handler must not keep the message from the others.
          logger.error({ err: error, channel: name }, "Redis message handler failed");
        }
      }
    });
    this.subscriber = subscriber;
    return subscriber;
  }

  private sendSubscribe(names: string[]): void {
    if (names.length === 0 || !this.subscriber) return;
    this.subscriber
      .subscribe(...names)
      .then(() => {
        for (const name of names) this.channels.get(name)?.confirm();
      })
      .catch((error: unknown) => this.degraded(error));
  }

  /** Drops both connections at once (shutdown, tests); the reconnect loop stops with them. */
  close(): void {
    this.closed = true;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    this.client.disconnect();
    this.subscriber?.disconnect();
    this.channels.clear();
  }
}

// One connection pair per process and URL, on globalThis so Next's separate module instances share it.
const holder = globalThis as typeof globalThis & { __dsaRedis?: Map<string, RedisConnection> };

/** The process's Redis connection for REDIS_URL, opened on first use; null when REDIS_URL is not set. */
export function redisConnection(): RedisConnection | null {
  const url = getSettings().REDIS_URL;
  if (url === "") return null;
  holder.__dsaRedis ??= new Map();
  let connection = holder.__dsaRedis.get(url);
  if (!connection) {
    connection = new RedisConnection(url);
    holder.__dsaRedis.set(url, connection);
  }
  return connection;
}

/** Closes every connection this process opened (shutdown, tests). */
export function closeRedisConnections(): void {
  for (const connection of holder.__dsaRedis?.values() ?? []) connection.close();
  holder.__dsaRedis?.clear();
}
