import type { AgentStreamEvent, TAgentContext, TAgentMessage, TAnswerChecks } from "@/lib/agent/schemas";

// The page's picture of a conversation: entries built from a stored session (GET /agent/chat/sessions/{id}) or
// from the events of a running turn (POST /agent/chat/stream), so both render the same way.

export type ToolStepState = "running" | "ok" | "failed";

export interface ToolStep {
  step: number;
  tool: string;
  name: string;
  state: ToolStepState;
  /** Seconds, once done. */
  duration: number | null;
  error: string | null;
}

/** What a running turn is doing now; server text (in the request's language) wins over our own labels. */
export type Progress =
  | { kind: "connecting" }
  | { kind: "thinking"; step: number; message: string | null }
  | { kind: "tool"; name: string }
  | { kind: "generating"; message: string | null };

export type EntryState = "streaming" | "complete" | "cancelled" | "error";

export interface ChatEntry {
  key: string;
  role: "user" | "assistant";
  content: string;
  state: EntryState;
  tools: ToolStep[];
  checks: TAnswerChecks | null;
  /** The error's message, for state "error". */
  error: string | null;
  progress: Progress | null;
  model: string | null;
}

export type ChatContext = Pick<TAgentContext, "stock_code" | "stock_name" | "record_id">;

export function userEntry(key: string, content: string): ChatEntry {
  return {
    key,
    role: "user",
    content,
    state: "complete",
    tools: [],
    checks: null,
    error: null,
    progress: null,
    model: null,
  };
}

export function pendingAnswer(key: string): ChatEntry {
  return {
    key,
    role: "assistant",
    content: "",
    state: "streaming",
    tools: [],
    checks: null,
    error: null,
    progress: { kind: "connecting" },
    model: null,
  };
}

/** A stored message as an entry (an error message keeps its text as the error). */
export function entryFromMessage(message: TAgentMessage): ChatEntry {
  const state: EntryState =
    message.status === "cancelled" ? "cancelled" : message.status === "error" ? "error" : "complete";
  return {
    key: `m${message.id}`,
    role: message.role,
    content: state === "error" ? "" : message.content,
    state,
    tools: (message.tool_calls ?? []).map((call, index) => ({
      step: index + 1,
      tool: call.tool,
      name: call.display_name || call.tool,
      state: call.success ? "ok" : "failed",
      duration: Number.isFinite(call.duration) ? call.duration : null,
      error: null,
    })),
    checks: message.checks ?? null,
    error: state === "error" ? message.content || null : null,
    progress: null,
    model: message.model ?? null,
  };
}

const EVENT_TYPES = new Set([
  "accepted",
  "thinking",
  "tool_start",
  "tool_done",
  "generating",
  "delta",
  "done",
  "error",
]);

/** A stream payload as a known event, or null (unknown types and malformed payloads are skipped). */
export function asStreamEvent(payload: unknown): AgentStreamEvent | null {
  if (!payload || typeof payload !== "object") return null;
  const type = (payload as { type?: unknown }).type;
  return typeof type === "string" && EVENT_TYPES.has(type) ? (payload as AgentStreamEvent) : null;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value : null;
}

function finishTool(tools: ToolStep[], event: Extract<AgentStreamEvent, { type: "tool_done" }>): ToolStep[] {
  const done = {
    state: (event.success ? "ok" : "failed") as ToolStepState,
    duration: typeof event.duration === "number" && Number.isFinite(event.duration) ? event.duration : null,
    error: text(event.error),
  };
  // The running step of this tool and step number; else the oldest running one of the tool; else a new row.
  let at = tools.findIndex((s) => s.state === "running" && s.tool === event.tool && s.step === event.step);
  if (at < 0) at = tools.findIndex((s) => s.state === "running" && s.tool === event.tool);
  if (at < 0)
    return [...tools, { step: event.step, tool: event.tool, name: event.display_name || event.tool, ...done }];
  return tools.map((s, i) => (i === at ? { ...s, ...done, name: event.display_name || s.name } : s));
}

/** The entry of a running answer after one stream event. */
export function applyEvent(entry: ChatEntry, event: AgentStreamEvent): ChatEntry {
  switch (event.type) {
    case "accepted":
      return entry;
    case "thinking":
      return { ...entry, progress: { kind: "thinking", step: event.step, message: text(event.message) } };
    case "tool_start":
      return {
        ...entry,
        progress: { kind: "tool", name: event.display_name || event.tool },
        tools: [
          ...entry.tools,
          {
            step: event.step,
            tool: event.tool,
            name: event.display_name || event.tool,
            state: "running",
            duration: null,
            error: null,
          },
        ],
      };
    case "tool_done":
      return { ...entry, tools: finishTool(entry.tools, event) };
    case "generating":
      return { ...entry, progress: { kind: "generating", message: text(event.message) } };
    case "delta":
      return typeof event.content === "string" ? { ...entry, content: entry.content + event.content } : entry;
    case "done": {
      const state: EntryState = event.cancelled ? "cancelled" : event.success ? "complete" : "error";
      return {
        ...entry,
        // The final text replaces the streamed one; a cancelled turn with no final text keeps what arrived.
        content:
          typeof event.content === "string" && (event.content || !event.cancelled) ? event.content : entry.content,
        state,
        checks: event.checks ?? null,
        error: state === "error" ? (text(event.message) ?? text(event.error)) : null,
        progress: null,
        model: event.model ?? null,
        tools: stopRunning(entry.tools),
      };
    }
    case "error":
      return {
        ...entry,
        state: "error",
        error: text(event.message) ?? text(event.error),
        progress: null,
        tools: stopRunning(entry.tools),
      };
  }
}

/** Steps still marked running when the turn ended did not finish. */
function stopRunning(tools: ToolStep[]): ToolStep[] {
  return tools.some((s) => s.state === "running")
    ? tools.map((s) => (s.state === "running" ? { ...s, state: "failed" } : s))
    : tools;
}

/** The turn ended without `done` or `error`: cancelled when the user asked for it, else cut off. */
export function endWithoutDone(entry: ChatEntry, cancelled: boolean, closedMessage: string): ChatEntry {
  if (entry.state !== "streaming") return entry;
  return cancelled
    ? { ...entry, state: "cancelled", progress: null, tools: stopRunning(entry.tools) }
    : { ...entry, state: "error", error: closedMessage, progress: null, tools: stopRunning(entry.tools) };
}

export function failEntry(entry: ChatEntry, message: string): ChatEntry {
  return { ...entry, state: "error", error: message, progress: null, tools: stopRunning(entry.tools) };
}
