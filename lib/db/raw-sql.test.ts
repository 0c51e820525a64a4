import { describe, expect, it } from "vitest";
import { placeholders } from "./raw-sql";

describe("placeholders", () => {
  it("keeps SQLite's ? and numbers them for PostgreSQL", () => {
    const sql = "SELECT id FROM t WHERE a = ? AND b IN (?, ?) LIMIT ?";
    expect(placeholders(sql, "sqlite")).toBe(sql);
    expect(placeholders(sql, "postgres")).toBe("SELECT id FROM t WHERE a = $1 AND b IN ($2, $3) LIMIT $4");
  });

  it("leaves a ? inside quoted text or a quoted identifier alone", () => {
    expect(placeholders(`SELECT '?' AS "q?", x FROM t WHERE y = ? AND z = 'it''s ?'`, "postgres")).toBe(
      `SELECT '?' AS "q?", x FROM t WHERE y = $1 AND z = 'it''s ?'`,
    );
  });
});
