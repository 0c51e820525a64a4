import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { takeTokenRequest } from "@/lib/auth/api-token-rate-limit";
import { bearerTokenOf } from "@/lib/auth/api-token-secret";
import { verifyApiToken } from "@/lib/auth/api-tokens";
import { INVALID_TOKEN } from "@/lib/auth/guard";
import { ApiError } from "@/lib/errors/api-error";
import { getSettings } from "@/lib/settings/settings";
import { buildMcpServer, type TokenScope } from "./server";

// POST /mcp. Stateless (no MCP session): each request gets its own server and transport, so any replica can answer
// any request and nothing has to be shared between them. Server-initiated streams (GET) and session ends (DELETE)
// do not exist without sessions: the route serves POST only, and the start-up server answers other methods 405.

/** Bytes of one JSON-RPC message read at most, as for the API's JSON bodies. */
const MAX_BODY_BYTES = 1024 * 1024;

const NEEDS_TOKEN = "The MCP endpoint needs an API token: send Authorization: Bearer dsa_…";

// The token is checked first, as on every protected route: a caller without one learns nothing, not even whether
// the endpoint is switched on.
async function callerScope(req: Request): Promise<TokenScope> {
  const secret = bearerTokenOf(req);
  const token = secret === null ? null : await verifyApiToken(secret);
  if (!token)
    throw ApiError.of("unauthorized", secret === null ? NEEDS_TOKEN : INVALID_TOKEN).withHeaders({
      "WWW-Authenticate": 'Bearer realm="dsa"',
    });
  await takeTokenRequest(token.id);
  if (!getSettings().MCP_ENABLED)
    throw ApiError.of("not_found", "The MCP endpoint is switched off (MCP_ENABLED=false)");
  return token.scope === "write" ? "write" : "read";
}

export async function handleMcp(req: Request): Promise<Response> {
  const scope = await callerScope(req);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await buildMcpServer(scope).connect(transport);
  return transport.handleRequest(req);
}
