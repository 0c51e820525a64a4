// GET / belongs to the web UI for browsers, so next.config rewrites API clients' requests for / here.
export const ROOT_JSON_ROUTE = "/api/root";

// Paths served by a route file at another location (route file path -> documented path).
export const ROUTE_ALIASES: Record<string, string> = { [ROOT_JSON_ROUTE]: "/" };

// Route files that serve browser documents (the human-readable API reference, the tab and app icons), not API operations.
export const DOCUMENT_ROUTES = ["/docs", "/docs/assets/{file}", "/favicon.ico", "/icons/{file}"] as const;

// Catch-all that answers unknown /api paths with the JSON not_found envelope (not an operation).
export const FALLBACK_ROUTES = ["/api/{path}"] as const;

// The request-overhead bench's pair of routes (lib/http/bench-routes.ts): 404 unless DSA_BENCH_ROUTES=1, not operations.
export const BENCH_ROUTES = ["/api/bench/bare", "/api/bench/wrapped"] as const;
