import { loadInRounds, median, medianRatio, startService, type Benchmark, type BenchRow, type LoadResult } from "./harness";

// Issue 23 §3: what our route wrapper (trace id, auth guard, zod parse, error mapping, access log line) costs against
// a bare Next.js route handler answering the same JSON in the same server (goal: the wrapper keeps ≥ 90 % of the
// bare route's throughput), and what the access log costs (goal: a few percent): the wrapped route on a server
// logging every request (LOG_LEVEL=info, the default) and on a twin server that logs only warnings, each against its
// own server's bare route. Both servers run for the whole bench. On a shared machine whose speed drifts by ±25 %
// within a minute, each ratio is taken within one round (its four loads run back to back, in an order that rotates
// from round to round) and the median of the rounds' ratios is reported.
// A third server runs with admin auth on: there every API request of the web UI carries the session cookie that the
// guard checks (the cookie unsealed, the session row read), and a program's requests carry an API token (its row read,
// its rate limit taken), so its wrapped route is loaded both ways, against that server's bare route, in rounds of its
// own after the first two servers have stopped.

// A multiple of the four loads, so each load runs in each position of a round equally often.
const ROUNDS = Number(process.env.BENCH_OVERHEAD_ROUNDS ?? 4);

/** The median of the rounds: one round disturbed by the machine does not move it. */
const medianOf = (results: LoadResult[], pick: (r: LoadResult) => number) => median(results.map(pick));

export const requestOverheadBenchmark: Benchmark = {
  name: "request-overhead",
  async run(): Promise<BenchRow[]> {
    const logging = await startService({ DSA_BENCH_ROUTES: "1", LOG_LEVEL: "info" });
    const quiet = await startService({ DSA_BENCH_ROUTES: "1", LOG_LEVEL: "warn" });
    const urls = {
      bare: `${logging.baseUrl}/api/bench/bare?n=1`,
      wrapped: `${logging.baseUrl}/api/bench/wrapped?n=1`,
      quietBare: `${quiet.baseUrl}/api/bench/bare?n=1`,
      quiet: `${quiet.baseUrl}/api/bench/wrapped?n=1`,
    };
    type Kind = keyof typeof urls;
    let runs: Record<Kind, LoadResult[]>;
    try {
      runs = await loadInRounds(urls, ROUNDS);
    } finally {
      await Promise.all([logging.stop(), quiet.stop()]);
    }
    for (const [name, results] of Object.entries(runs)) {
      const bad = results.reduce((n, r) => n + r.errors + r.non2xx, 0);
      if (bad > 0) throw new Error(`request-overhead ${name}: ${bad} errors or non-2xx answers`);
    }
    const auth = await signedInRuns();
    const rps = (k: Kind) => medianOf(runs[k], (r) => r.requestsPerSec);
    const perRound = (a: Kind, b: Kind) => runs[a].map((r, i) => r.requestsPerSec / runs[b][i]!.requestsPerSec);
    const ratio = (a: Kind, b: Kind) => medianRatio(runs[a], runs[b], (r) => r.requestsPerSec);
    // Each wrapper ratio is taken against the bare route of its own server, so what differs between the two processes
    // cancels; the access log's cost is how much lower the logging server's ratio is than the quiet one's.
    const logged = perRound("wrapped", "bare");
    const unlogged = perRound("quiet", "quietBare");
    const logCost = median(logged.map((r, i) => r / unlogged[i]!));
    const p99 = (k: Kind) => medianOf(runs[k], (r) => r.p99Ms);
    const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
    const benchmark = `route overhead, same server, 32 conns, median of ${ROUNDS}`;
    // The auth-on server's loads, each against that server's bare route.
    const authRow = (subject: string, runs: LoadResult[]): BenchRow => ({
      benchmark,
      subject,
      metric: "throughput",
      value: round(medianOf(runs, (r) => r.requestsPerSec)),
      unit: "req/s",
      ratio: round(medianRatio(runs, auth.bare, (r) => r.requestsPerSec), 3),
    });
    return [
      { benchmark, subject: "bare Next.js route handler", metric: "throughput", value: round(rps("bare")), unit: "req/s" },
      { benchmark, subject: "DSA route wrapper (access log on)", metric: "throughput", value: round(rps("wrapped")), unit: "req/s", ratio: round(ratio("wrapped", "bare"), 3) },
      { benchmark, subject: "bare Next.js route handler, twin server logging only warnings", metric: "throughput", value: round(rps("quietBare")), unit: "req/s" },
      { benchmark, subject: "DSA route wrapper, access log off (twin server)", metric: "throughput", value: round(rps("quiet")), unit: "req/s", ratio: round(ratio("quiet", "quietBare"), 3) },
      { benchmark, subject: "access log: on vs off", metric: "throughput ratio", value: round(logCost, 3), unit: "×" },
      { benchmark, subject: "bare Next.js route handler, third server with admin auth on", metric: "throughput", value: round(medianOf(auth.bare, (r) => r.requestsPerSec)), unit: "req/s" },
      authRow("DSA route wrapper, signed in with a session cookie (admin auth on, access log off)", auth.signedIn),
      authRow("DSA route wrapper, with an API token (admin auth on, access log off)", auth.token),
      { benchmark, subject: "bare Next.js route handler", metric: "p99 latency", value: round(p99("bare")), unit: "ms" },
      { benchmark, subject: "DSA route wrapper (access log on)", metric: "p99 latency", value: round(p99("wrapped")), unit: "ms", ratio: round(p99("wrapped") / Math.max(p99("bare"), 1), 3) },
    ];
  },
};

/**
 * The auth-on server's bare route, and its wrapped route loaded with a live session's cookie (the web UI) and with an
 * API token (a program calling the API), in rounds. The token's rate limit is raised out of the way: a load sends
 * ~15,000 requests a minute's window would otherwise refuse.
 */
async function signedInRuns(): Promise<Record<"bare" | "signedIn" | "token", LoadResult[]>> {
  const service = await startService({ DSA_BENCH_ROUTES: "1", LOG_LEVEL: "warn", ADMIN_AUTH_ENABLED: "true", API_TOKEN_RATE_PER_MINUTE: "100000" });
  try {
    // The first login on an auth-on install sets the password and starts a session.
    const login = await fetch(`${service.baseUrl}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: service.baseUrl },
      body: JSON.stringify({ password: "bench-password-1", passwordConfirm: "bench-password-1" }),
    });
    const cookie = /dsa_session=[^;]*/.exec(login.headers.get("set-cookie") ?? "")?.[0];
    if (!login.ok || !cookie) throw new Error(`request-overhead: login on the auth-on server failed (HTTP ${login.status})`);
    const signedInUrl = `${service.baseUrl}/api/bench/wrapped?n=1`;
    if ((await fetch(signedInUrl)).status !== 401) throw new Error("request-overhead: the wrapped route answered without a session");
    const created = await fetch(`${service.baseUrl}/api/v1/auth/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: service.baseUrl, cookie },
      body: JSON.stringify({ name: "bench", scope: "read" }),
    });
    const token = ((await created.json()) as { token?: string }).token;
    if (created.status !== 201 || !token) throw new Error(`request-overhead: creating an API token failed (HTTP ${created.status})`);
    const runs = await loadInRounds(
      {
        bare: `${service.baseUrl}/api/bench/bare?n=1`,
        signedIn: { url: signedInUrl, request: { headers: { cookie } } },
        token: { url: signedInUrl, request: { headers: { authorization: `Bearer ${token}` } } },
      },
      ROUNDS,
    );
    for (const kind of ["signedIn", "token"] as const) {
      const bad = runs[kind].reduce((n, r) => n + r.errors + r.non2xx, 0);
      if (bad > 0) throw new Error(`request-overhead ${kind}: ${bad} errors or non-2xx answers`);
    }
    return runs;
  } finally {
    await service.stop();
  }
}
