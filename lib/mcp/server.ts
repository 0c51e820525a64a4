import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { CHAT_TOOLS } from "@/lib/agent/tool-catalog";
import type { ToolContext, ToolDefinition } from "@/lib/agent/tool-definition";
import type { Language } from "@/lib/agent/tool-data";
import { getSettings } from "@/lib/settings/settings";
import { SERVICE_VERSION } from "@/lib/version";
import { toolError } from "./errors";
import { registerPrompts } from "./prompts";
import { registerResources } from "./resources";
import { MCP_ONLY_TOOLS } from "./tools";

/** Every tool MCP offers: the chat's, then its own. */
export const MCP_TOOLS: readonly ToolDefinition[] = [...CHAT_TOOLS, ...MCP_ONLY_TOOLS];

export type TokenScope = "read" | "write";

/** The tools a token of this scope may call: a read token's server has no write tool at all. */
export function toolsFor(scope: TokenScope): ToolDefinition[] {
  return MCP_TOOLS.filter((t) => scope === "write" || t.scope === "read");
}

// A schema with an OpenAPI id becomes a $ref in JSON Schema, and MCP wants each tool's schema to be an object at its
// root: the tool is listed with a copy of the object without the id, and its input parsed with the schema itself too,
// which keeps the refinements the copy drops.
function listed(schema: z.ZodObject): z.ZodObject {
  return schema.def.catchall?._zod.def.type === "never" ? z.strictObject(schema.shape) : z.object(schema.shape);
}

/** One server per request (the endpoint is stateless, so any replica answers any request). */
export function buildMcpServer(scope: TokenScope): McpServer {
  const server = new McpServer(
    { name: "dsa", title: "DSA stock analysis", version: SERVICE_VERSION },
    {
      instructions:
        "DSA analyses China A-share, Hong Kong and US stocks. Every figure a tool answers comes from stored or fetched " +
        "market data, never from a model; quote them as given, with the sample sizes and intervals the evidence carries.",
    },
  );
  const language: Language = getSettings().REPORT_LANGUAGE === "en" ? "en" : "zh";
  for (const definition of toolsFor(scope)) {
    server.registerTool(
      definition.name,
      {
        title: definition.title.en,
        description: definition.description,
        inputSchema: listed(definition.input),
        outputSchema: listed(definition.output),
        annotations: { readOnlyHint: definition.scope === "read", openWorldHint: false },
      },
      async (input, extra) => {
        const progressToken = extra._meta?.progressToken;
        const context: ToolContext = {
          language,
          signal: extra.signal,
          progress: async (progress, total, message) => {
            if (progressToken === undefined) return;
            await extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken, progress, total, message },
            });
          },
        };
        try {
          const output = definition.output.parse(await definition.run(definition.input.parse(input), context));
          return { content: [{ type: "text" as const, text: JSON.stringify(output) }], structuredContent: output };
        } catch (error) {
          return toolError(error);
        }
      },
    );
  }
  registerResources(server);
  registerPrompts(server);
  return server;
}
