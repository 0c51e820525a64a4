import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * A test server's log with everything it logged before this call: the server writes its lines in batches
 * (lib/log/logger.ts) through a pipe, so a marker request is logged and the file read until the marker is in it
 * (one destination per process keeps lines in order, so every earlier line is there too).
 */
export async function settledServerLog(server: { baseUrl: string; dataDir: string }): Promise<string> {
  const marker = `log-settled-${randomUUID()}`;
  await (await fetch(`${server.baseUrl}/api/health`, { headers: { "x-trace-id": marker } })).arrayBuffer();
  const file = path.join(server.dataDir, "server.log");
  const deadline = Date.now() + 15_000;
  for (;;) {
    const text = fs.readFileSync(file, "utf8");
    if (text.includes(marker)) return text;
    if (Date.now() > deadline) throw new Error(`the server never logged its marker request ${marker}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
