import type { NextConfig } from "next";
import { ROOT_JSON_ROUTE } from "./lib/openapi/route-paths";

const nextConfig: NextConfig = {
  // A separate build folder lets two builds (e.g. two working copies' test runs) coexist on one machine.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  // The share-image renderer (lib/history/share/png.ts): resvg is a native addon and satori loads its own
  // WebAssembly layout engine; both are loaded from node_modules at run time instead of being bundled.
  // chinese-days ships an ES module under a CommonJS package.json, which Turbopack refuses to bundle; Node
  // loads its CommonJS build (main) at run time instead.
  serverExternalPackages: ["satori", "@resvg/resvg-js", "chinese-days"],
  // The docs routes read swagger-ui-dist's files from node_modules at run time; keep them in the server trace.
  outputFileTracingIncludes: {
    "/docs/assets/[file]": ["./node_modules/swagger-ui-dist/swagger-ui*"],
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
