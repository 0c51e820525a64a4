import pino from "pino";
import { getSettings } from "@/lib/settings/settings";

// One JSON log per process (makeLoggers): keys that could carry secrets are censored wherever they appear.
// Lines reach stdout asynchronously: with a write per line, every request's access log line stopped the
// event loop whenever stdout's reader (a pipe, a terminal, a log shipper) was slower than the server. pino writes
// what is still buffered when the process exits. Next bundles this module more than once, so the destination is one
// per process (two asynchronous writers on one pipe could split each other's lines), and what waits for a slow reader
// is bounded: past MAX_BUFFERED_BYTES new lines are dropped rather than memory growing without end.
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
// Lines are written in batches of about this many bytes, and at least every FLUSH_EVERY_MS: one write per access-log
// line cost a system call per request (about 5 % of a busy server's time), a batch costs one per ~40 lines.
const BATCH_BYTES = 8 * 1024;
const FLUSH_EVERY_MS = 100;

type Destination = ReturnType<typeof pino.destination>;
const holder = globalThis as typeof globalThis & { dsaLogDestination?: Destination };

function stdoutDestination(): Destination {
  holder.dsaLogDestination ??= pino.destination({
    dest: 1,
    sync: false,
    minLength: BATCH_BYTES,
    periodicFlush: FLUSH_EVERY_MS,
    maxLength: MAX_BUFFERED_BYTES,
  });
  return holder.dsaLogDestination;
}

/**
 * The process's two loggers on one destination: `logger` for everything, censoring keys that could carry secrets
 * wherever they appear, and `access` for the access log line only. That line is of our own making (trace id, method,
 * path without the query, status, ms), so nothing in it can hold a secret, and it skips the redaction: pino's wildcard
 * paths cost as much as the rest of the line (8 µs against 4 µs per line here). Same level, base and
 * time, so the line is the one `logger` would write.
 */
export function makeLoggers(destination: pino.DestinationStream, level: string) {
  const options = { level, base: { service: "dsa" }, timestamp: pino.stdTimeFunctions.isoTime };
  return {
    logger: pino(
      {
        ...options,
        redact: {
          paths: ["*.password", "*.apiKey", "*.api_key", "*.token", "*.secret", "*.authorization", "*.cookie"],
          censor: "[redacted]",
        },
      },
      destination,
    ),
    access: pino(options, destination),
  };
}

const loggers = makeLoggers(stdoutDestination(), getSettings().LOG_LEVEL);
export const logger = loggers.logger;

export function requestLogger(traceId: string) {
  return logger.child({ trace_id: traceId });
}

// The access log line of every API request: the trace id as its first field, the same line a request's
// child logger writes, without making a child per request (pino runs its redaction over a child's bindings when it is
// made, wasted on every request that logs nothing else), and without redaction (makeLoggers says why).
export function accessLogOn(): boolean {
  return loggers.access.isLevelEnabled("info");
}

export type AccessLine = { method: string; path: string; status: number; ms: number };

export function logAccess(traceId: string, line: AccessLine): void {
  writeAccessLine(loggers.access, traceId, line);
}

/** The access line as `logAccess` writes it, to any logger (tests compare it with the redacting logger's). */
export function writeAccessLine(access: pino.Logger, traceId: string, line: AccessLine): void {
  access.info({ trace_id: traceId, ...line }, "request");
}
