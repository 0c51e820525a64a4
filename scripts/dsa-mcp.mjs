#!/usr/bin/env node
// dsa-mcp: a stdio MCP server that forwards every message to a running DSA's /mcp, for desktop clients that only
// speak stdio. Usage: DSA_URL=http://127.0.0.1:3000 DSA_API_TOKEN=dsa_… dsa-mcp   (or --url and --token; the
// environment keeps the token out of the process list). Nothing is logged to stdout, which carries the protocol.
import { parseArgs } from "node:util";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const { values } = parseArgs({ options: { url: { type: "string" }, token: { type: "string" } } });
const url = values.url ?? process.env.DSA_URL ?? "http://127.0.0.1:3000";
const token = values.token ?? process.env.DSA_API_TOKEN ?? "";
if (!token.startsWith("dsa_")) {
  process.stderr.write("dsa-mcp: set DSA_API_TOKEN (or --token) to a DSA API token (dsa_…)\n");
  process.exit(2);
}

const upstream = new StreamableHTTPClientTransport(new URL("/mcp", url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const local = new StdioServerTransport();

// A request the service could not be asked (down, 401, 404) still gets an answer, so the client is never left waiting.
local.onmessage = (message) => {
  upstream.send(message).catch((error) => {
    process.stderr.write(`dsa-mcp: ${error.message}\n`);
    if ("id" in message && "method" in message)
      void local.send({ jsonrpc: "2.0", id: message.id, error: { code: -32000, message: `DSA: ${error.message}` } });
  });
};
upstream.onmessage = (message) => void local.send(message);
upstream.onerror = (error) => process.stderr.write(`dsa-mcp: ${error.message}\n`);
local.onclose = () => void upstream.close().finally(() => process.exit(0));

await upstream.start();
await local.start();
