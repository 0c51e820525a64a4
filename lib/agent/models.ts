import { getSettings } from "@/lib/settings/settings";
import { readLlmChannelConfig, type LlmChannel } from "@/lib/analysis/llm/channels";
import { SERVICE_VERSION } from "@/lib/version";

// Which model answers the chat: AGENT_MODEL first when set ("channel/model", or a model name of a
// configured channel: a cheaper model than the reports'), then every configured channel's models in order
// (primary first), as the report path tries them. A model is only tried again with another when the failed one
// wrote nothing yet.

export interface ChatModelChoice {
  channel: LlmChannel;
  model: string;
  /** "agent_model" when it comes from AGENT_MODEL. */
  source: "agent_model" | "channels";
}

export function chatModelChoices(): ChatModelChoice[] {
  const { channels } = readLlmChannelConfig();
  if (channels.length === 0) return [];
  const all: ChatModelChoice[] = channels.flatMap((channel) =>
    channel.models.map((model) => ({ channel, model, source: "channels" as const })),
  );
  const preferred = preferredChoice(channels, getSettings().AGENT_MODEL);
  if (!preferred) return all;
  return [preferred, ...all.filter((c) => !(c.channel.name === preferred.channel.name && c.model === preferred.model))];
}

function preferredChoice(channels: readonly LlmChannel[], setting: string): ChatModelChoice | null {
  const wanted = setting.trim();
  if (!wanted) return null;
  const slash = wanted.indexOf("/");
  if (slash > 0) {
    const channel = channels.find((c) => c.name.toLowerCase() === wanted.slice(0, slash).toLowerCase());
    const model = wanted.slice(slash + 1).trim();
    if (channel && model) return { channel, model, source: "agent_model" };
  }
  const owner = channels.find((c) => c.models.includes(wanted)) ?? channels[0]!;
  return { channel: owner, model: wanted, source: "agent_model" };
}

export const SLASH_COMMANDS = [
  "/analyze",
  "/quote",
  "/market",
  "/history",
  "/signals",
  "/backtest",
  "/watch",
  "/help",
] as const;

// GET /api/v1/agent/status – the chat answers free questions only with an LLM channel; commands always work
export function agentStatus() {
  const config = readLlmChannelConfig();
  const available = config.channels.length > 0;
  const problems = config.problems.map((p) => `${p.channel}: ${p.reason}`).join("; ");
  return {
    backend: "dsa",
    available,
    experimental: false,
    version: SERVICE_VERSION,
    error_code: available ? null : "llm_not_configured",
    message: available
      ? null
      : `Free questions need an LLM channel: set LLM_CHANNELS (with LLM_<NAME>_BASE_URL, _API_KEY, _MODELS) or OPENAI_API_KEY in Settings → AI model.${problems ? ` Skipped: ${problems}.` : ""} The commands ${SLASH_COMMANDS.join(", ")} work without one.`,
    commands: [...SLASH_COMMANDS],
  };
}

function safeBase(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return null;
  }
}

// GET /api/v1/agent/models – the deployments the chat may use, in the order they are tried (never a key)
export function agentModels() {
  const choices = chatModelChoices();
  return {
    models: choices.map((c, i) => ({
      deployment_id: `${c.channel.name}/${c.model}`,
      model: c.model,
      provider: c.channel.configuredProtocol,
      source: c.source === "agent_model" ? "AGENT_MODEL" : "LLM channels",
      api_base: safeBase(c.channel.baseURL),
      deployment_name: c.channel.name,
      is_primary: i === 0,
      is_fallback: i > 0,
    })),
  };
}
