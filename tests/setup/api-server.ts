import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${log()}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/**
 * The real built server as `npm start` runs it (migrations, then next start), on a free port with a
 * throw-away database and env file. Output goes to <dataDir>/server.log.
 */
export async function startTestServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  if (!fs.existsSync(path.join(ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
    throw new Error("No production build: run `npm run build` first (npm test does it for you)");
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-api-"));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/start.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATABASE_URL: `file:${path.join(dataDir, "api.db")}`,
      ENV_FILE: path.join(dataDir, ".env"),
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const sink = fs.createWriteStream(path.join(dataDir, "server.log"));
  const keep = (chunk: Buffer) => {
    sink.write(chunk);
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  await waitForHealth(baseUrl, child, () => output);
  return {
    baseUrl,
    dataDir,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      sink.end();
    },
  };
}

/** The shared server for API test files (auth off, defaults); files needing other settings start their own. */
export default async function setup(project: TestProject) {
  const server = await startTestServer();
  project.provide("baseUrl", server.baseUrl);
  project.provide("dataDir", server.dataDir);
  return () => server.stop();
}
