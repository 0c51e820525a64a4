import fs from "node:fs/promises";
import path from "node:path";

// The package's exports map hides its browser bundle, so it is read by path from the install.
const SCALAR_BUNDLE = path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");

// The API reference renders with Scalar's prebuilt bundle, served by this service: no CDN, no web fonts,
// no hosted proxy, so /docs works on a machine without internet.
const SCALAR_CONFIG = {
  url: "/openapi.json",
  withDefaultFonts: false,
  hideClientButton: true,
  agent: { disabled: true },
  mcp: { disabled: true },
  // The bundle declares its web fonts on a CDN; naming only local fonts keeps the browser from fetching them.
  customCss: `.scalar-app, .light-mode, .dark-mode, :root {
    --scalar-font: ui-sans-serif, system-ui, sans-serif;
    --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, monospace;
  }`,
};

// Belt and braces: the page may load nothing but this service's own scripts, styles and data.
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'self'",
].join("; ");

export function docsPageHtml(): string {
  const config = JSON.stringify(SCALAR_CONFIG).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>DSA API reference</title>
<style>body{margin:0;font-family:ui-sans-serif,system-ui,sans-serif}</style>
</head>
<body>
<div id="api-reference"></div>
<script src="/docs/scalar.js"></script>
<script>Scalar.createApiReference("#api-reference", ${config});</script>
</body>
</html>`;
}

let bundle: Promise<Buffer> | null = null;

// The bundle's CSS declares @font-face sources on Scalar's CDN and loads them eagerly; pointing them at
// empty data URLs makes the viewer fall back to local fonts with no outbound request.
const CDN_FONT = /https:\/\/fonts\.scalar\.com\/[A-Za-z0-9-]+\.woff2/g;

export function scalarBundle(): Promise<Buffer> {
  bundle ??= fs.readFile(SCALAR_BUNDLE, "utf8").then((code) => Buffer.from(code.replace(CDN_FONT, "data:font/woff2;base64,")));
  return bundle;
}
