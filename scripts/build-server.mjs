// The second half of `npm run build`: the launcher (scripts/start.ts) and the HTTP server in front of Next
// (scripts/http-server.ts), bundled with esbuild into <build folder>/dsa-server/ so that `npm start` runs them
// on plain Node. Under tsx every module the server loaded, Next's own chunks included, went through tsx's
// loader hooks: a start took seconds longer. Packages stay in node_modules, loaded at run time.
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, process.env.NEXT_DIST_DIR || ".next", "dsa-server");

await build({
  absWorkingDir: root,
  entryPoints: ["scripts/start.ts", "scripts/http-server.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  outdir,
  outExtension: { ".js": ".mjs" },
  logLevel: "warning",
});
console.log(`server bundle: ${path.relative(root, outdir)}/{start,http-server}.mjs`);
