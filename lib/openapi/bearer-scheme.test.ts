import { describe, expect, it } from "vitest";
import { docsAsset } from "./docs-page";
import { buildOpenApiDocument } from "./document";
import { OPERATIONS } from "./operations";

type Doc = {
  components: { securitySchemes: Record<string, Record<string, string>> };
  paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
};

describe("the BearerToken scheme in the OpenAPI document", () => {
  const doc = buildOpenApiDocument(OPERATIONS) as unknown as Doc;

  it("declares an http bearer scheme beside the session cookie", () => {
    expect(doc.components.securitySchemes.BearerToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.AdminSessionCookie).toMatchObject({ type: "apiKey", in: "cookie" });
  });

  it("every protected operation accepts the cookie, and the bearer token unless it is admin-session-only", () => {
    for (const op of OPERATIONS) {
      const security = doc.paths[op.path]![op.method.toLowerCase()]!.security;
      if (op.public) expect(security, op.operationId).toBeUndefined();
      else if (op.tokenOnly) expect(security, op.operationId).toEqual([{ BearerToken: [] }]);
      else if (op.adminSessionOnly) expect(security, op.operationId).toEqual([{ AdminSessionCookie: [] }]);
      else expect(security, op.operationId).toEqual([{ AdminSessionCookie: [] }, { BearerToken: [] }]);
    }
    const sessionOnly = OPERATIONS.filter((op) => op.adminSessionOnly)
      .map((op) => op.operationId)
      .sort();
    expect(sessionOnly).toEqual([
      "changePassword",
      "createApiToken",
      "exportSystemConfig",
      "importSystemConfig",
      "listApiTokens",
      "revokeApiToken",
      "updateAuthSettings",
    ]);
  });

  it("the MCP endpoint takes an API token only", () => {
    expect(OPERATIONS.filter((op) => op.tokenOnly).map((op) => `${op.method} ${op.path}`)).toEqual(["POST /mcp"]);
  });

  it("Swagger UI keeps a pasted token across reloads", async () => {
    expect((await docsAsset("docs-init.js"))!.toString()).toContain("persistAuthorization: true");
  });
});
