import type { z } from "zod";

// A page's URL query read with the API's own zod schema, so a page and its API operation accept the same filters.

/** A page's searchParams as Next hands them over. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a query parameter, trimmed; undefined when it is absent or blank. */
export function firstParam(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/**
 * The URL's `fields` read with `schema`. A field the schema refuses (a bad date, a date range the wrong way round,
 * page 0) is dropped and named in `invalid`, so the page still lists something; `fallback` when nothing parses.
 */
export function readPageQuery<T>(
  params: SearchParams,
  schema: z.ZodType<T>,
  fields: readonly string[],
  fallback: T,
): { query: T; invalid: string[] } {
  const raw: Record<string, string> = {};
  for (const field of fields) {
    const value = firstParam(params[field]);
    if (value) raw[field] = value;
  }
  const invalid: string[] = [];
  for (let attempt = 0; attempt <= fields.length; attempt++) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return { query: parsed.data, invalid };
    const bad = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")))].filter((f) => f in raw);
    if (bad.length === 0) break;
    for (const field of bad) {
      invalid.push(field);
      delete raw[field];
    }
  }
  return { query: fallback, invalid };
}
