import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./document";
import { OPERATIONS } from "./operations";
import { BENCH_ROUTES, DOCUMENT_ROUTES, FALLBACK_ROUTES, ROUTE_ALIASES } from "./route-paths";

const APP = path.resolve("app");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

// app/api/v1/history/[record_id]/route.ts -> /api/v1/history/{record_id}; route groups vanish.
function urlPathOf(file: string): string {
  const segments = path
    .relative(APP, path.dirname(file))
    .split(path.sep)
    .filter((s) => s !== "" && !/^\(.*\)$/.test(s))
    .map((s) => s.replace(/^\[(?:\.\.\.)?(.+)\]$/, "{$1}"));
  return `/${segments.join("/")}`;
}

function exportedMethods(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  return METHODS.filter((m) => new RegExp(`export\\s+(const\\s+${m}\\b|(async\\s+)?function\\s+${m}\\b)`).test(source));
}

describe("OpenAPI covers exactly the routes the app serves", () => {
  const notOperations = new Set<string>([...DOCUMENT_ROUTES, ...FALLBACK_ROUTES, ...BENCH_ROUTES]);
  const served = routeFiles(APP).flatMap((file) => {
    const filePath = urlPathOf(file);
    if (notOperations.has(filePath)) return [];
    const documented = ROUTE_ALIASES[filePath] ?? filePath;
    return exportedMethods(file).map((m) => `${m} ${documented}`);
  });
  const documented = OPERATIONS.map((op) => `${op.method} ${op.path}`);

  it("every route file's handler has an OpenAPI operation", () => {
    expect(served.filter((s) => !documented.includes(s))).toEqual([]);
  });

  it("every OpenAPI operation has a route file", () => {
    expect(documented.filter((d) => !served.includes(d))).toEqual([]);
  });

  it("operation ids are unique", () => {
    const ids = OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("the route-file walker sees route groups and parameters as URL paths", () => {
    expect(urlPathOf(path.join(APP, "(ui)", "x", "[record_id]", "route.ts"))).toBe("/x/{record_id}");
    expect(urlPathOf(path.join(APP, "api", "[...path]", "route.ts"))).toBe("/api/{path}");
  });
});

describe("9: the generated document", () => {
  const doc = buildOpenApiDocument(OPERATIONS) as {
    openapi: string;
    info: { version: string };
    components: { schemas: Record<string, unknown> };
  };

  it("validates as OpenAPI 3.1.0 with API version 1.0.0", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
  });

  it("every $ref points at a component that exists", () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => !(r in doc.components.schemas))).toEqual([]);
  });
});
