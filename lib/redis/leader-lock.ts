import { randomUUID } from "node:crypto";
import { redisConnection, type RedisConnection } from "./connection";
import { redisKey } from "./keys";
import { renewLock, releaseLock, tryLock } from "./lock";

export type LeaderRun<T> = { ran: true; value: T } | { ran: false };

/**
 * Lets one replica at a time do a periodic job (the alert evaluator, the schedule tick). Every replica keeps its
 * timer; at each tick it asks claim(): the holder renews its lock, the others find it taken and skip. The TTL is
 * longer than the tick interval, so the leader keeps the lock from one tick to the next and the job does not hop
 * between replicas; when the leader dies its lock expires and the next replica to tick takes over.
 */
export class LeaderLock {
  private readonly token = randomUUID();
  /** Set by release(): a stopping process claims nothing more (a pass's renewal would take the lock back). */
  private released = false;

  constructor(
    private readonly name: string,
    private readonly connection: () => RedisConnection | null = redisConnection,
  ) {}

  private get key(): string {
    return redisKey("leader", this.name);
  }

  /**
   * True when this process may run the job now: it holds the lock (renewed for `ttlMs`) or just took it. Also true
   * without Redis (one process, as always) and while Redis is unreachable: then every replica runs it, as before
   * Redis, and the database claims (a slot's row, a target's armed flag) still keep the work from being done twice.
   */
  async claim(ttlMs: number): Promise<boolean> {
    if (this.released) return false;
    const connection = this.connection();
    if (!connection) return true;
    const client = await connection.usableClient();
    if (!client) {
      connection.degraded();
      return true;
    }
    try {
      if (await renewLock(client, this.key, this.token, ttlMs)) return true;
      return await tryLock(client, this.key, this.token, ttlMs);
    } catch (error) {
      connection.degraded(error);
      return true;
    }
  }

  /** Runs `work` if claim() allows, renewing the lock every third of the TTL while it runs (a long pass keeps it). */
  async run<T>(ttlMs: number, work: () => Promise<T>): Promise<LeaderRun<T>> {
    if (!(await this.claim(ttlMs))) return { ran: false };
    const renewal = setInterval(() => void this.claim(ttlMs), Math.max(10, Math.floor(ttlMs / 3)));
    renewal.unref();
    try {
      return { ran: true, value: await work() };
    } finally {
      clearInterval(renewal);
    }
  }

  /** Hands the job over at once (a stopping process) instead of after the TTL; this lock claims nothing after it. */
  async release(): Promise<void> {
    this.released = true;
    const client = this.connection()?.readyClient();
    if (!client) return;
    await releaseLock(client, this.key, this.token).catch(() => false);
  }
}
