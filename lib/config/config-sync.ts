import { logger } from "@/lib/log/logger";
import { redisConnection, type ChannelSubscription, type RedisConnection } from "@/lib/redis/connection";
import {
  configChangedChannel,
  installConfigRow,
  readConfigDocument,
  readConfigRevision,
  type ConfigDocumentRow,
} from "./config-document";
import { usesConfigDocument } from "./env-store";

// How a replica keeps its settings in step with the config document (PostgreSQL) while getSettings() stays
// a synchronous read of a cached copy: a Redis message from the writer makes it read the row at once, and a
// one-second poll of the revision alone catches what Redis missed or could not carry (no REDIS_URL, an
// outage, a message sent while this replica was reconnecting). The writer's own process installs its write
// itself (config-document.ts); this only brings in other replicas' writes.

const POLL_MS = 1000;

export interface ConfigSyncOptions {
  /** How often the revision is polled (default 1 s). */
  pollMs?: number;
  /** Where change messages arrive; default the process's Redis connection (none without REDIS_URL). */
  redis?: RedisConnection | null;
  /** Takes each newer revision; throwing (settings that do not parse) keeps the previous one. */
  apply(row: ConfigDocumentRow): void;
}

export class ConfigDocumentSync {
  private revision = 0;
  private held: ConfigDocumentRow | null = null;
  private timer: NodeJS.Timeout | null = null;
  private subscription: ChannelSubscription | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private failing = false;
  private refused = 0;
  private readonly pollMs: number;
  private readonly redis: RedisConnection | null;

  constructor(private readonly options: ConfigSyncOptions) {
    this.pollMs = options.pollMs ?? POLL_MS;
    this.redis = options.redis === undefined ? redisConnection() : options.redis;
  }

  /** Reads the row (importing the env file on the very first start), then follows it. */
  async start(): Promise<void> {
    this.offer(await readConfigDocument());
    this.timer = setInterval(() => void this.refresh(), this.pollMs);
    this.timer.unref();
    this.subscription =
      this.redis?.subscribe(configChangedChannel(), (message) => {
        if (!(Number(message) <= this.revision)) void this.refresh();
      }) ?? null;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.subscription?.unsubscribe();
    this.subscription = null;
  }

  /** The revision this replica holds. */
  current(): ConfigDocumentRow | null {
    return this.held;
  }

  /** Resolves once Redis confirmed the subscription (tests: a message sent before would be missed). */
  async subscribed(): Promise<void> {
    await this.subscription?.subscribed;
  }

  /** Reads the revision, and the row when it moved on. Calls during a read share it and queue one more. */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.check().finally(() => {
      this.running = null;
      if (!this.again) return;
      this.again = false;
      void this.refresh();
    });
    return this.running;
  }

  private async check(): Promise<void> {
    try {
      const revision = await readConfigRevision();
      if (revision !== null && revision > this.revision) this.offer(await readConfigDocument());
      if (this.failing) logger.info("The config document can be read again; replica settings follow it again");
      this.failing = false;
    } catch (error) {
      // Logged once per outage; the settings held stay in force meanwhile.
      if (!this.failing)
        logger.warn(
          { err: (error as Error).message },
          "Reading the config document failed; this replica keeps its current settings until it can",
        );
      this.failing = true;
    }
  }

  private offer(row: ConfigDocumentRow): void {
    if (row.revision <= this.revision) return;
    try {
      this.options.apply(row);
    } catch (error) {
      if (this.refused !== row.revision)
        logger.error(
          { revision: row.revision, err: (error as Error).message },
          "The config document does not parse as settings; the previous revision stays in force",
        );
      this.refused = row.revision;
      return;
    }
    this.revision = row.revision;
    this.held = row;
  }
}

// One follower per process, on globalThis so Next's separate module instances share it.
const holder = globalThis as typeof globalThis & {
  __dsaConfigSync?: { sync: ConfigDocumentSync; started: Promise<void> };
};

/**
 * Called once at server start (instrumentation register(), before the workers): with PostgreSQL it loads the
 * config document into the settings (importing the env file on the first start) and follows it from then on.
 * Nothing happens on SQLite, where the settings read the env file itself.
 */
export async function startConfigSync(): Promise<void> {
  if (!usesConfigDocument()) return;
  if (!holder.__dsaConfigSync) {
    const sync = new ConfigDocumentSync({ apply: (row) => void installConfigRow(row) });
    holder.__dsaConfigSync = { sync, started: sync.start() };
    holder.__dsaConfigSync.started.catch(() => {
      holder.__dsaConfigSync = undefined; // a later call may try again
    });
  }
  await holder.__dsaConfigSync.started;
}

/** Stops following the document (shutdown, tests); the settings keep the revision they hold. */
export function stopConfigSync(): void {
  holder.__dsaConfigSync?.sync.stop();
  holder.__dsaConfigSync = undefined;
}
