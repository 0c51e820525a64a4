import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/openapi/operations";
import { SYSTEM_CONFIG_OPERATIONS } from "./operations";

// The config operations documented together with the rest (lib/openapi/operations.ts registers them).
const all = [
  ...OPERATIONS.filter((op) => !SYSTEM_CONFIG_OPERATIONS.some((c) => c.operationId === op.operationId)),
  ...SYSTEM_CONFIG_OPERATIONS,
];

describe("4.4 system config operations in the OpenAPI document", () => {
  const doc = buildOpenApiDocument(all) as {
    paths: Record<string, Record<string, { tags: string[]; security?: unknown[]; responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown> };
  };

  it("the document still validates as OpenAPI 3.1 and every $ref resolves", async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((r) => !(r in doc.components.schemas))).toEqual([]);
  });

  it("names the docs/api.md §3 records as components", () => {
    for (const name of [
      "SystemConfigResponse",
      "SystemConfigItem",
      "SystemConfigSchemaResponse",
      "UpdateSystemConfigRequest",
      "UpdateSystemConfigResponse",
      "ValidateSystemConfigRequest",
      "ValidateSystemConfigResponse",
      "ExportSystemConfigResponse",
      "ImportSystemConfigRequest",
      "SystemConfigConflictResponse",
      "SystemConfigValidationErrorResponse",
    ]) {
      expect(Object.keys(doc.components.schemas), name).toContain(name);
    }
  });

  it("every config operation is tagged, needs the admin session (or, but for export/import, an API token), and documents its error statuses", () => {
    const ops = doc.paths["/api/v1/system/config"]!;
    expect(Object.keys(ops).sort()).toEqual(["get", "put"]);
    expect(Object.keys(ops.put!.responses).sort()).toEqual(["200", "400", "401", "409", "422", "500"]);
    expect(Object.keys(doc.paths["/api/v1/system/config/export"]!.get!.responses).sort()).toEqual([
      "200",
      "401",
      "403",
      "500",
    ]);
    expect(Object.keys(doc.paths["/api/v1/system/config/import"]!.post!.responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "403",
      "409",
      "422",
      "500",
    ]);
    for (const op of SYSTEM_CONFIG_OPERATIONS) {
      expect(op.tags).toEqual(["System config"]);
      expect(op.public).toBeUndefined();
      const sessionOnly = op.path.endsWith("/export") || op.path.endsWith("/import");
      expect(doc.paths[op.path]![op.method.toLowerCase()]!.security).toEqual(
        sessionOnly ? [{ AdminSessionCookie: [] }] : [{ AdminSessionCookie: [] }, { BearerToken: [] }],
      );
    }
  });
});
