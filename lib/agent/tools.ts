import { tool, type ToolSet } from "ai";
import { MarketDataUnavailableError } from "@/lib/market";
import type { AgentStreamEvent, TAgentToolCall } from "./schemas";
import { CHAT_TOOLS } from "./tool-catalog";
import type { ToolContext } from "./tool-definition";
import { TOOL_NAMES, type ToolName } from "./tool-names";
import { ToolInputError, type Language } from "./tool-data";

// The chat's tools as AI SDK tools, and the recorder that logs each call of a turn.

export { TOOL_NAMES, type ToolName };

export const TOOL_DISPLAY_NAMES = Object.fromEntries(CHAT_TOOLS.map((t) => [t.name, t.title])) as Record<
  ToolName,
  Record<Language, string>
>;

/** Steps only the /analyze command takes (the model does not write reports from the chat). */
const COMMAND_STEP_NAMES: Record<string, Record<Language, string>> = {
  analyze_stock: { zh: "运行分析", en: "Run analysis" },
  get_watchlist: { zh: "读取自选股", en: "Read the watchlist" },
  add_to_watchlist: { zh: "加入自选股", en: "Add to the watchlist" },
  remove_from_watchlist: { zh: "移出自选股", en: "Remove from the watchlist" },
};

export function toolDisplayName(name: string, language: Language): string {
  const names = { ...COMMAND_STEP_NAMES, ...TOOL_DISPLAY_NAMES } as Record<string, Record<Language, string>>;
  return names[name]?.[language] ?? name;
}

/** Records every tool call of a turn (for the stored message and the answer check) and reports its start and end. */
export class ToolRecorder {
  readonly calls: TAgentToolCall[] = [];
  step = 0;

  constructor(
    private readonly emit: (event: AgentStreamEvent) => void,
    readonly language: Language,
  ) {}

  async run<T>(name: string, input: unknown, work: () => Promise<T>): Promise<T> {
    const display = toolDisplayName(name, this.language);
    const step = this.step;
    this.emit({ type: "tool_start", tool: name, display_name: display, step, input });
    const started = performance.now();
    try {
      const output = await work();
      const duration = seconds(started);
      this.calls.push({ tool: name, display_name: display, input, output, success: true, duration });
      this.emit({ type: "tool_done", tool: name, display_name: display, step, success: true, duration });
      return output;
    } catch (error) {
      const duration = seconds(started);
      const message = toolErrorMessage(error);
      this.calls.push({
        tool: name,
        display_name: display,
        input,
        output: { error: message },
        success: false,
        duration,
      });
      this.emit({
        type: "tool_done",
        tool: name,
        display_name: display,
        step,
        success: false,
        duration,
        error: message,
      });
      throw error instanceof ToolInputError ? error : new ToolInputError(message);
    }
  }

  /** The successful outputs, for the answer check. */
  outputs(): { tool: string; output: unknown }[] {
    return this.calls.filter((c) => c.success).map((c) => ({ tool: c.tool, output: c.output }));
  }
}

function seconds(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}

/** What a failed tool call tells the model and the user: the reason, never a stack or a provider's body. */
export function toolErrorMessage(error: unknown): string {
  if (error instanceof ToolInputError) return error.message;
  if (error instanceof MarketDataUnavailableError) return `no market data: ${error.message}`.slice(0, 300);
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) return "cancelled";
  return "the data could not be read";
}

/** The AI SDK tools of one turn, from the shared definitions (tool-catalog.ts); each call goes through the recorder. */
export function buildAgentTools(recorder: ToolRecorder, signal?: AbortSignal): ToolSet {
  const context: ToolContext = { language: recorder.language, signal, progress: async () => {} };
  return Object.fromEntries(
    CHAT_TOOLS.map((definition) => [
      definition.name,
      tool({
        description: definition.description,
        inputSchema: definition.input,
        execute: (input) => recorder.run(definition.name, input, () => definition.run(input, context)),
      }),
    ]),
  );
}
