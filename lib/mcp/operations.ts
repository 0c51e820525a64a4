import { ZErrorResponse } from "@/lib/errors/schemas";
import { defineOperation } from "@/lib/operation/operation";

export const mcpOp = defineOperation({
  method: "POST",
  path: "/mcp",
  operationId: "mcp",
  summary: "Model Context Protocol endpoint (Streamable HTTP, stateless) for AI assistants and agents",
  description:
    "The body is a JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, " +
    "resources/list, resources/read, prompts/list, prompts/get); the answer is JSON or, for a call that reports " +
    "progress, a text/event-stream. Every request needs an API token, whatever the auth mode (401 without one), and " +
    "counts against its rate limit; then, until MCP_ENABLED=true, the answer is 404. A read token sees only the " +
    "read tools. Stateless: GET and DELETE answer 405.\n\nA Streamable HTTP client's configuration:\n\n" +
    '```json\n{"mcpServers": {"dsa": {"type": "http", "url": "http://127.0.0.1:3000/mcp",\n' +
    '  "headers": {"Authorization": "Bearer dsa_your_token"}}}}\n```\n\n' +
    "A desktop client that only starts stdio servers runs the bridge of this repository:\n\n" +
    '```json\n{"mcpServers": {"dsa": {"command": "node", "args": ["/path/to/dsa/scripts/dsa-mcp.mjs"],\n' +
    '  "env": {"DSA_URL": "http://127.0.0.1:3000", "DSA_API_TOKEN": "dsa_your_token"}}}}\n```\n\n' +
    "The tools, resources and prompts: docs/mcp.md.",
  tags: ["MCP"],
  tokenOnly: true,
  responses: {
    200: { description: "A JSON-RPC answer, as JSON or as an event stream", contentType: "application/json" },
    202: { description: "A notification or a response was accepted" },
    400: { description: "A JSON-RPC error: the body is not a JSON-RPC message (parse error -32700)" },
    401: {
      description: "unauthorized: no API token, or one that is unknown, revoked or expired",
      schema: ZErrorResponse,
    },
    404: { description: "not_found: MCP_ENABLED is false", schema: ZErrorResponse },
    429: { description: "rate_limited: the token's per-minute budget is spent", schema: ZErrorResponse },
  },
});
