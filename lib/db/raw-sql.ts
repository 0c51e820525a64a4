import { getSettings } from "@/lib/settings/settings";
import { databaseKind, resolveDatabaseUrl, type DatabaseKind } from "./database-url";

/** Which database this process talks to (DATABASE_URL's scheme). */
export function activeDatabaseKind(): DatabaseKind {
  return databaseKind(resolveDatabaseUrl(getSettings().DATABASE_URL));
}

/**
 * Hand-built SQL is written with `?` placeholders (SQLite's); PostgreSQL numbers them `$1, $2, …`. Quoted
 * text and identifiers are left alone, so a `?` inside a literal is never renumbered.
 */
export function placeholders(sql: string, kind: DatabaseKind = activeDatabaseKind()): string {
  if (kind === "sqlite") return sql;
  let n = 0;
  let quote: string | null = null;
  let out = "";
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else {
      out += ch === "?" ? `$${++n}` : ch;
    }
  }
  return out;
}
