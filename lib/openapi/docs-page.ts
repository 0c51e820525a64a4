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
  hideDarkModeToggle: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  telemetry: false,
  metaData: { title: "DSA API reference" },
};

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

export function scalarBundle(): Promise<Buffer> {
  bundle ??= fs.readFile(SCALAR_BUNDLE);
  return bundle;
}
