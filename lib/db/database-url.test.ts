import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_DATABASE_URL, resolveDatabaseUrl } from "./database-url";

describe("DATABASE_URL resolution", () => {
  it("defaults to file:./data/dsa.db, made absolute against the working directory", () => {
    expect(DEFAULT_DATABASE_URL).toBe("file:./data/dsa.db");
    expect(resolveDatabaseUrl(undefined, "/srv/dsa")).toBe("file:/srv/dsa/data/dsa.db");
    expect(resolveDatabaseUrl("  ", "/srv/dsa")).toBe("file:/srv/dsa/data/dsa.db");
  });

  it("keeps absolute paths and :memory:", () => {
    expect(resolveDatabaseUrl("file:/var/lib/dsa.db")).toBe("file:/var/lib/dsa.db");
    expect(resolveDatabaseUrl("file::memory:")).toBe("file::memory:");
    expect(resolveDatabaseUrl("file:db/x.db", "/a")).toBe(`file:${path.join("/a", "db", "x.db")}`);
  });

  it("refuses a non-SQLite URL with a clear message", () => {
    expect(() => resolveDatabaseUrl("postgresql://localhost/dsa")).toThrow(/must be a SQLite "file:" URL/);
  });
});
