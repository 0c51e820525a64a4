import type { NextConfig } from "next";
import { ROOT_JSON_ROUTE } from "./lib/openapi/route-paths";

// Pages and the docs: Next's streamed payload and Swagger UI's bootstrap are inline scripts (no nonce
// plumbing on statically rendered pages), so scripts are limited to this origin plus inline; nothing may
// frame a page, post a form elsewhere or load from another origin. Dev mode's React needs eval.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const PAGE_HEADERS = [
  { key: "Content-Security-Policy", value: CONTENT_SECURITY_POLICY },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
];

const nextConfig: NextConfig = {
  // A separate build folder lets two builds (e.g. two working copies' test runs) coexist on one machine.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // `npm run typecheck` checks every file, tests included; a caller that has just run it (.ci/run) sets
  // DSA_TYPECHECKED=1 so the build does not check the same program a second time.
  typescript: { ignoreBuildErrors: process.env.DSA_TYPECHECKED === "1" },
  // A CI build starts from a clean clone and is thrown away: writing Turbopack's build cache is only a cost there.
  experimental: { turbopackFileSystemCacheForBuild: process.env.CI !== "true" },
  reactStrictMode: true,
  // The share-image renderer: resvg is a native addon and satori loads its own WebAssembly layout engine; only the
  // renderer threads (lib/history/share/render-worker.mjs, plain Node from the source tree) import them, from
  // node_modules at run time; kept external so that no server bundle ever re-bundles them. piscina, which runs those
  // threads, starts its own worker script from its package folder, so it is loaded from node_modules too.
  // chinese-days ships an ES module under a CommonJS package.json, which Turbopack refuses to bundle; Node
  // loads its CommonJS build (main) at run time instead.
  // undici (the outbound fetch with the connect-time address check) is loaded from node_modules as well, and so is
  // read-excel-file (the watchlist's XLSX import), whose zip reader (fflate) may start worker threads.
  // ioredis too: its connection and reconnect machinery run as published, not re-bundled.
  serverExternalPackages: [
    "satori",
    "@resvg/resvg-js",
    "piscina",
    "chinese-days",
    "undici",
    "read-excel-file",
    "ioredis",
  ],
  // The docs routes read swagger-ui-dist's files from node_modules at run time; keep them in the server trace.
  outputFileTracingIncludes: {
    "/docs/assets/[file]": ["./node_modules/swagger-ui-dist/swagger-ui*"],
  },
  // Every response but the API's (whose share-image HTML sets its own stricter policy) gets the page headers.
  async headers() {
    return [{ source: "/((?!api/).*)", headers: PAGE_HEADERS }];
  },
  async rewrites() {
    return {
      // GET / is the web UI for browsers and RootResponse JSON for API clients (spec 4.1). The UI's own
      // client-side requests for / (navigation, prefetch, router.refresh) send `RSC: 1` without text/html
      // in Accept; they must reach the page too, or every return to / becomes a full reload.
      beforeFiles: [
        {
          source: "/",
          destination: ROOT_JSON_ROUTE,
          missing: [
            { type: "header", key: "accept", value: ".*text/html.*" },
            { type: "header", key: "rsc" },
          ],
        },
      ],
      afterFiles: [],
      fallback: [],
    };
  },
};

export default nextConfig;
