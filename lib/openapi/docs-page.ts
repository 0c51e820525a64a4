import fs from "node:fs/promises";
import path from "node:path";
import { API_VERSION, SERVICE_VERSION } from "@/lib/version";

// The API reference is Swagger UI from the swagger-ui-dist package, served by this service itself:
// no CDN, no web fonts, and the online validator badge is switched off, so /docs works offline.
const ASSET_DIR = path.join(process.cwd(), "node_modules", "swagger-ui-dist");

export const DOCS_ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "docs-init.js": "text/javascript; charset=utf-8",
};

// Inline scripts are refused by the page's CSP, so the start-up code is an asset of its own.
const INIT_SCRIPT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    displayRequestDuration: true,
    // The Authorize button (shown for the BearerToken scheme) keeps a pasted API token across reloads.
    persistAuthorization: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "StandaloneLayout",
  });
});
`;

// The page may load nothing but this service's own scripts, styles and data.
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'self'",
].join("; ");

export function docsPageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>DSA API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>body{margin:0} .swagger-ui .topbar{display:none}
.dsa-bar{display:flex;gap:16px;align-items:center;padding:10px 20px;border-bottom:1px solid #e5e7eb;font:14px sans-serif}
.dsa-bar a{color:#1b5fd6;font-weight:600;text-decoration:none} .dsa-bar span{color:#4b5563}</style>
</head>
<body>
<nav class="dsa-bar" aria-label="DSA"><a href="/">← DSA</a><span>DSA ${SERVICE_VERSION} · API contract ${API_VERSION}</span></nav>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/docs-init.js"></script>
</body>
</html>`;
}

const cache = new Map<string, Promise<Buffer>>();

/** Bytes of one docs asset, or null for a name that is not one. */
export function docsAsset(name: string): Promise<Buffer> | null {
  if (!(name in DOCS_ASSETS)) return null;
  let bytes = cache.get(name);
  if (!bytes) {
    bytes =
      name === "docs-init.js" ? Promise.resolve(Buffer.from(INIT_SCRIPT)) : fs.readFile(path.join(ASSET_DIR, name));
    cache.set(name, bytes);
  }
  return bytes;
}
