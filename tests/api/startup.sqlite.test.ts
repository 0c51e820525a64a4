import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../setup/api-server";

// A second process on a SQLite database in use, and the database file's modes (SQLite only: on
// PostgreSQL the replica test starts two servers on one database at once).

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers.reverse()) await server.stop();
});

describe("start-up on a database another process serves from", () => {
  it("a second server starts on the same SQLite file while the first serves, and both answer", async () => {
    const first = await startTestServer({ MARKET_DATA_SOURCES: "sample" });
    servers.push(first);
    const created = await fetch(`${first.baseUrl}/api/v1/portfolio/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "shared" }),
    });
    expect(created.status).toBe(200);

    const second = await startTestServer({ MARKET_DATA_SOURCES: "sample" }, { dataDir: first.dataDir });
    servers.push(second);
    const listed = await (await fetch(`${second.baseUrl}/api/v1/portfolio/accounts`)).json();
    expect(JSON.stringify(listed)).toContain("shared");
    expect((await fetch(`${first.baseUrl}/api/v1/health`)).status).toBe(200);
  }, 240_000);

  it("the database file and its WAL/SHM files are owner-only (0600)", () => {
    const dir = servers[0]!.dataDir;
    for (const name of ["api.db", "api.db-wal", "api.db-shm"]) {
      const file = path.join(dir, name);
      if (name !== "api.db" && !fs.existsSync(file)) continue;
      expect(fs.statSync(file).mode & 0o077, name).toBe(0);
    }
  });
});
