import { z } from "zod";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ToolInputError } from "@/lib/agent/tool-data";
import { ApiError } from "@/lib/errors/api-error";
import { logger } from "@/lib/log/logger";
import { MarketDataUnavailableError } from "@/lib/market";

// A tool that fails answers an MCP tool error whose text is the HTTP API's error record ({error, message, ...}), so
// a client reads the same code over MCP as over HTTP; nothing else of the failure (no stack, no provider body).

export function toolError(error: unknown): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(errorRecord(error)) }] };
}

function errorRecord(error: unknown): Record<string, unknown> {
  if (error instanceof ApiError) return { error: error.code, message: error.message, ...error.extra };
  if (error instanceof ToolInputError) return { error: "validation_error", message: error.message };
  if (error instanceof z.ZodError) return { error: "validation_error", message: z.prettifyError(error) };
  if (error instanceof MarketDataUnavailableError)
    return { error: "service_unavailable", message: `no market data: ${error.message}`.slice(0, 300) };
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError"))
    return { error: "request_timeout", message: "cancelled" };
  logger.error({ err: error }, "mcp tool failed");
  return { error: "internal_error", message: "Internal server error" };
}
