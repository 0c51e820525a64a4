import { alternatingLoad, type AlternatingTarget, type PhaseCounts } from "./alternating-load";
import { median, percentile, startService, type Benchmark, type BenchRow } from "./harness";

// What our route wrapper (trace id, auth guard, zod parse, error mapping, access log line) costs against
// a bare Next.js route handler answering the same JSON in the same server (goal: the wrapper keeps ≥ 90 % of the
// bare route's throughput), and what the access log costs (goal: a few percent): the wrapped route on a server
// logging every request (LOG_LEVEL=info, the default) and on a twin server that logs only warnings, each against its
// own server's bare route. The subjects take turns in half-second phases of one load and each ratio is the median of
// the per-cycle ratios (alternating-load.ts: this machine's speed swings by a third within seconds).
// A third server runs with admin auth on: there every API request of the web UI carries the session cookie that the
// guard checks (the cookie unsealed, the session row read), and a program's requests carry an API token (its row read,
// its rate limit taken). Each is compared with the bare route sent the same request, cookie or Authorization header
// included, so the ratio is what our code costs; what Next itself spends on a request's cookie header is a row of its
// own.

const SECONDS = Number(process.env.BENCH_OVERHEAD_SECONDS ?? 60);
const CONNECTIONS = 32;

export const requestOverheadBenchmark: Benchmark = {
  name: "request-overhead",
  async run(): Promise<BenchRow[]> {
    const logging = await startService({ DSA_BENCH_ROUTES: "1", LOG_LEVEL: "info" });
    const quiet = await startService({ DSA_BENCH_ROUTES: "1", LOG_LEVEL: "warn" });
    let plain: Measured<"bare" | "wrapped" | "quietBare" | "quiet">;
    try {
      plain = await measure({
        bare: { url: `${logging.baseUrl}/api/bench/bare?n=1` },
        wrapped: { url: `${logging.baseUrl}/api/bench/wrapped?n=1` },
        quietBare: { url: `${quiet.baseUrl}/api/bench/bare?n=1` },
        quiet: { url: `${quiet.baseUrl}/api/bench/wrapped?n=1` },
      });
    } finally {
      await Promise.all([logging.stop(), quiet.stop()]);
    }
    const auth = await signedInRuns();
    const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
    const named = (cycles: number, extra = "") =>
      `route overhead, same server, ${CONNECTIONS} conns, subjects alternating in 0.5 s phases, median of ${cycles} cycles${extra}`;
    const benchmark = named(plain.cycles);
    const throughput = <K extends string>(m: Measured<K>, subject: string, kind: K, baseline?: K): BenchRow => ({
      benchmark,
      subject,
      metric: "throughput",
      value: round(m.rps(kind)),
      unit: "req/s",
      ...(baseline ? { ratio: round(m.ratio(kind, baseline), 3) } : {}),
    });
    // The access log's cost: how much lower the logging server's wrapper ratio is than the quiet one's, cycle by cycle.
    const logged = plain.perCycle("wrapped", "bare");
    const unlogged = plain.perCycle("quiet", "quietBare");
    const authBench = named(auth.cycles, ", admin auth on, access log off");
    return [
      throughput(plain, "bare Next.js route handler", "bare"),
      throughput(plain, "DSA route wrapper (access log on)", "wrapped", "bare"),
      throughput(plain, "bare Next.js route handler, twin server logging only warnings", "quietBare"),
      throughput(plain, "DSA route wrapper, access log off (twin server)", "quiet", "quietBare"),
      {
        benchmark,
        subject: "access log: on vs off",
        metric: "throughput ratio",
        value: round(median(logged.map((r, i) => r / unlogged[i]!)), 3),
        unit: "×",
      },
      {
        ...throughput(auth, "bare Next.js route handler, third server with admin auth on", "bare"),
        benchmark: authBench,
      },
      {
        ...throughput(
          auth,
          "bare Next.js route handler sent the session cookie (what Next spends on the header)",
          "bareCookie",
          "bare",
        ),
        benchmark: authBench,
      },
      {
        ...throughput(
          auth,
          "DSA route wrapper signed in with a session cookie, against the bare route sent the same cookie",
          "signedIn",
          "bareCookie",
        ),
        benchmark: authBench,
      },
      {
        ...throughput(auth, "bare Next.js route handler sent the API token header", "bareToken", "bare"),
        benchmark: authBench,
      },
      {
        ...throughput(
          auth,
          "DSA route wrapper with an API token, against the bare route sent the same header",
          "token",
          "bareToken",
        ),
        benchmark: authBench,
      },
      {
        benchmark,
        subject: "bare Next.js route handler",
        metric: "p99 latency",
        value: round(plain.p99("bare")),
        unit: "ms",
      },
      {
        benchmark,
        subject: "DSA route wrapper (access log on)",
        metric: "p99 latency",
        value: round(plain.p99("wrapped")),
        unit: "ms",
        ratio: round(plain.p99("wrapped") / Math.max(plain.p99("bare"), 1), 3),
      },
    ];
  },
};

interface Measured<K extends string> {
  cycles: number;
  /** Median over cycles of a subject's rate. */
  rps(kind: K): number;
  /** Each cycle's rate of `a` over that of `b`. */
  perCycle(a: K, b: K): number[];
  ratio(a: K, b: K): number;
  p99(kind: K): number;
}

async function measure<K extends string>(targets: Record<K, AlternatingTarget>): Promise<Measured<K>> {
  const { kinds, counts } = await alternatingLoad(targets, { seconds: SECONDS, connections: CONNECTIONS });
  refuseFailures(kinds, counts);
  const at = (kind: K) => kinds.indexOf(kind);
  const perCycle = (a: K, b: K) => counts.rates.map((row) => row[at(a)]! / Math.max(row[at(b)]!, 1));
  return {
    cycles: counts.rates.length,
    rps: (kind) => median(counts.rates.map((row) => row[at(kind)]!)),
    perCycle,
    ratio: (a, b) => median(perCycle(a, b)),
    p99: (kind) => percentile(counts.latencies[at(kind)]!, 99),
  };
}

// Above this share of requests outliving the next phase's settling, the phases were not apart and the ratios mix subjects.
const MAX_LATE_SHARE = 0.02;

function refuseFailures(kinds: readonly string[], counts: PhaseCounts): void {
  kinds.forEach((kind, i) => {
    if (counts.failures[i]! > 0)
      throw new Error(`request-overhead ${kind}: ${counts.failures[i]} errors or non-2xx answers`);
    if (counts.latencies[i]!.length === 0) throw new Error(`request-overhead ${kind}: no request counted`);
  });
  if (counts.lateShare > MAX_LATE_SHARE) {
    throw new Error(
      `request-overhead: ${(100 * counts.lateShare).toFixed(1)} % of requests ended after the next phase settled; the phases overlapped`,
    );
  }
}

/**
 * The auth-on server's bare route (as is, sent the session cookie, sent the token header), and its wrapped route
 * loaded with a live session's cookie (the web UI) and with an API token (a program calling the API). The token's
 * rate limit is raised out of the way: a load sends far more requests than a minute's window would otherwise allow.
 */
async function signedInRuns(): Promise<Measured<"bare" | "bareCookie" | "signedIn" | "bareToken" | "token">> {
  const service = await startService({
    DSA_BENCH_ROUTES: "1",
    LOG_LEVEL: "warn",
    ADMIN_AUTH_ENABLED: "true",
    API_TOKEN_RATE_PER_MINUTE: "100000",
  });
  try {
    // The first login on an auth-on install sets the password and starts a session.
    const login = await fetch(`${service.baseUrl}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: service.baseUrl },
      body: JSON.stringify({ password: "bench-password-1", passwordConfirm: "bench-password-1" }),
    });
    const cookie = /dsa_session=[^;]*/.exec(login.headers.get("set-cookie") ?? "")?.[0];
    if (!login.ok || !cookie)
      throw new Error(`request-overhead: login on the auth-on server failed (HTTP ${login.status})`);
    const bare = `${service.baseUrl}/api/bench/bare?n=1`;
    const wrapped = `${service.baseUrl}/api/bench/wrapped?n=1`;
    if ((await fetch(wrapped)).status !== 401)
      throw new Error("request-overhead: the wrapped route answered without a session");
    const created = await fetch(`${service.baseUrl}/api/v1/auth/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: service.baseUrl, cookie },
      body: JSON.stringify({ name: "bench", scope: "read" }),
    });
    const token = ((await created.json()) as { token?: string }).token;
    if (created.status !== 201 || !token)
      throw new Error(`request-overhead: creating an API token failed (HTTP ${created.status})`);
    const withCookie = { headers: { cookie } };
    const withToken = { headers: { authorization: `Bearer ${token}` } };
    return await measure({
      bare: { url: bare },
      bareCookie: { url: bare, request: withCookie },
      signedIn: { url: wrapped, request: withCookie },
      bareToken: { url: bare, request: withToken },
      token: { url: wrapped, request: withToken },
    });
  } finally {
    await service.stop();
  }
}
