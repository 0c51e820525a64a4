import "./source-maps-off";
import cluster from "node:cluster";
import http from "node:http";
import type { Duplex } from "node:stream";
import next from "next";
import { getSettings } from "@/lib/settings/settings";
import { databaseKind, resolveDatabaseUrl } from "@/lib/db/database-url";
import { TRACE_HEADER } from "@/lib/http/route";
import {
  clientErrorRefusal,
  isApiPath,
  rawRequestTarget,
  refusalBody,
  hostRefusal,
  refuseRawRequest,
  routeTable,
  type RawRefusal,
} from "@/lib/http/raw-request";
import { newTraceId } from "@/lib/ids";
import { requestLogger } from "@/lib/log/logger";
import { OPERATIONS } from "@/lib/openapi/operations";
import { runShutdownHooks } from "@/lib/shutdown";
import { projectRoot } from "@/lib/project-root";

// The HTTP server in front of Next (instead of `next start`), for what only the socket knows: Next keeps a
// client-sent X-Forwarded-For/-Proto/-Host and builds req.url and the client address from them, so unless
// a trusted proxy set them they are dropped here and Next fills them from the socket. It also answers the
// request lines Next turns into a bare text 500 (malformed percent-escapes, TRACE) or an empty 405 (a method
// the route does not serve), and requests Node's parser refuses (oversized headers), in our own shapes; and it
// serves only the host names lib/http/host-policy.ts allows (DNS rebinding).

const root = projectRoot(import.meta.dirname);
const dev = process.argv.includes("--dev");
const FORWARDED = ["x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "x-forwarded-port", "forwarded"];

const ROUTES = routeTable(OPERATIONS);

function refuse(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const refusal = refuseRawRequest(req.method, req.url, ROUTES) ?? hostRefusal(req.headers, getSettings());
  if (!refusal) return false;
  const traceId = newTraceId();
  const { contentType, body } = refusalBody(refusal, isApiPath(req.url));
  requestLogger(traceId).warn(
    { method: req.method, path: req.url?.slice(0, 200), status: refusal.status },
    "request refused before routing",
  );
  res.writeHead(refusal.status, {
    "Content-Type": contentType,
    [TRACE_HEADER]: traceId,
    "X-Content-Type-Options": "nosniff",
    ...refusal.headers,
  });
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}

// Node answers these with a bare status line (431 for oversized headers, 400 for malformed HTTP); the
// socket still gets an answer in the envelope (or an HTML page), with a trace id, and is then closed.
function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const refusal: RawRefusal = clientErrorRefusal(error.code);
  const target = rawRequestTarget(error.rawPacket);
  const { contentType, body } = refusalBody(refusal, target === undefined || isApiPath(target));
  const traceId = newTraceId();
  requestLogger(traceId).warn(
    { code: error.code, path: target?.slice(0, 200), status: refusal.status },
    "request refused by the HTTP parser",
  );
  const head = [
    `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status] ?? ""}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `${TRACE_HEADER}: ${traceId}`,
    "X-Content-Type-Options: nosniff",
    "Connection: close",
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
}

async function main(): Promise<void> {
  const { PORT, HOSTNAME } = getSettings();
  const app = next({ dev, dir: root, hostname: HOSTNAME, port: PORT });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => {
    if (refuse(req, res)) return;
    if (!getSettings().TRUST_X_FORWARDED_FOR) for (const name of FORWARDED) delete req.headers[name];
    void handle(req, res);
  });
  server.on("clientError", answerClientError);
  server.listen(PORT, HOSTNAME, () => console.log(`DSA listening on http://${HOSTNAME}:${PORT}${dev ? " (dev)" : ""}`));
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    // As `next start` does: stop accepting, let pending requests finish, close Next, exit; and before the exit,
    // what the service registered to finish (lib/shutdown.ts: task hand-back, leader locks, notifications).
    process.once(signal, () => {
      const finished = runShutdownHooks(25_000);
      server.close(() => void finished.then(() => app.close()).finally(() => process.exit(0)));
      server.closeIdleConnections();
      setTimeout(() => process.exit(0), 30_000).unref();
    });
  }
}

/**
 * Server processes on this machine: WEB_CONCURRENCY (the process managers' convention) when the database
 * is PostgreSQL, which several processes share; SQLite keeps one process, its single writer.
 */
function processCount(): number {
  const asked = Number(process.env.WEB_CONCURRENCY ?? 1);
  if (dev || !Number.isInteger(asked) || asked <= 1) return 1;
  return databaseKind(resolveDatabaseUrl(getSettings().DATABASE_URL)) === "postgres" ? Math.min(asked, 64) : 1;
}

// N processes share the one listening socket through node:cluster (the primary hands out connections);
// each is a full replica (own Next instance and task workers) on the shared PostgreSQL and Redis.
function supervise(count: number): void {
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < count; i++) fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`DSA server process ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(fork, 1000);
  });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.once(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
      setTimeout(() => process.exit(0), 35_000).unref();
    });
  }
}

if (cluster.isPrimary && processCount() > 1) supervise(processCount());
else void main();
