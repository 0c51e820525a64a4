import type { z } from "zod";
import type { Language } from "./tool-data";

// One definition per tool, read by the agent chat (as AI SDK tools) and by the MCP server (as MCP tools), so the
// two never disagree on a tool's input, output or wording.

export interface ToolContext {
  language: Language;
  signal?: AbortSignal;
  /** Reports progress of a long call (the MCP client's progress notifications); a no-op where nobody listens. */
  progress: (done: number, total: number, message: string) => Promise<void>;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: Record<Language, string>;
  description: string;
  /** read: answers from stored or fetched data; write: changes something (needs a write token over MCP). */
  scope: "read" | "write";
  input: I;
  output: O;
  run: (input: z.output<I>, context: ToolContext) => Promise<z.input<O>>;
}

/** Keeps each definition's input and output types tied to its schemas. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  definition: ToolDefinition<I, O>,
): ToolDefinition {
  return definition as unknown as ToolDefinition;
}
