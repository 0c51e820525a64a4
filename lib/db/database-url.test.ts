import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_DATABASE_URL,
  databaseFilePath,
  databaseKind,
  redactedDatabaseUrl,
  resolveDatabaseUrl,
} from "./database-url";

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

  it("passes PostgreSQL URLs through and tells the two kinds apart", () => {
    expect(resolveDatabaseUrl(" postgresql://dsa@127.0.0.1:5432/dsa ")).toBe("postgresql://dsa@127.0.0.1:5432/dsa");
    expect(databaseKind("postgres://h/db")).toBe("postgres");
    expect(databaseKind("file:/var/lib/dsa.db")).toBe("sqlite");
    expect(() => databaseFilePath("postgresql://h/db")).toThrow(/no file path/);
  });

  it("refuses any other scheme with a clear message", () => {
    expect(() => resolveDatabaseUrl("mysql://localhost/dsa")).toThrow(
      /must be a SQLite "file:" URL or a "postgresql:\/\/" URL/,
    );
  });

  it("hides the password of a URL shown in logs", () => {
    expect(redactedDatabaseUrl("postgresql://dsa:s3cret@db:5432/dsa")).toBe("postgresql://dsa:***@db:5432/dsa");
    expect(redactedDatabaseUrl("postgresql://db/dsa")).toBe("postgresql://db/dsa");
  });
});
