import { describe, expect, it } from "vitest";
import {
  channelSecrets,
  describeLlmChannels,
  llmChannels,
  llmConfigured,
  readLlmChannelConfig,
  splitList,
} from "./channels";

const reader = (values: Record<string, string>) => (key: string) => values[key];

describe("LLM channels from settings", () => {
  it("no key at all → not configured (rule-based only)", () => {
    expect(llmConfigured(reader({}))).toBe(false);
    expect(readLlmChannelConfig(reader({})).source).toBe("none");
  });

  it("LLM_CHANNELS in order, with models primary-first, protocols mapped to the wire format", () => {
    const channels = llmChannels(
      reader({
        LLM_CHANNELS: "deepseek, my-proxy，local",
        LLM_DEEPSEEK_PROTOCOL: "deepseek",
        LLM_DEEPSEEK_API_KEY: "sk-ds",
        LLM_DEEPSEEK_MODELS: "deepseek-chat,deepseek-reasoner",
        LLM_MY_PROXY_PROTOCOL: "openai",
        LLM_MY_PROXY_BASE_URL: "https://proxy.example.com/v1/",
        LLM_MY_PROXY_API_KEYS: "k1,k2",
        LLM_MY_PROXY_MODELS: "gpt-4o",
        LLM_LOCAL_PROTOCOL: "ollama",
        LLM_LOCAL_MODELS: "qwen2.5",
      }),
    );
    expect(channels.map((c) => [c.name, c.protocol, c.baseURL, c.models])).toEqual([
      ["deepseek", "openai-compatible", "https://api.deepseek.com", ["deepseek-chat", "deepseek-reasoner"]],
      ["my-proxy", "openai", "https://proxy.example.com/v1", ["gpt-4o"]],
      ["local", "openai-compatible", "http://127.0.0.1:11434/v1", ["qwen2.5"]],
    ]);
    expect(channels[1]!.apiKeys).toEqual(["k1", "k2"]);
    expect(channels[2]!.apiKey).toBe("");
  });

  it("skips disabled channels and reports unusable ones without secrets", () => {
    const values = {
      LLM_CHANNELS: "off,nokey,nomodel,badurl",
      LLM_OFF_ENABLED: "false",
      LLM_OFF_API_KEY: "sk-off",
      LLM_OFF_BASE_URL: "http://x",
      LLM_OFF_MODELS: "m",
      LLM_NOKEY_BASE_URL: "http://x",
      LLM_NOKEY_MODELS: "m",
      LLM_NOMODEL_PROTOCOL: "openai-compatible",
      LLM_NOMODEL_BASE_URL: "http://x",
      LLM_NOMODEL_API_KEY: "sk-nomodel",
      LLM_BADURL_BASE_URL: "ftp://x",
      LLM_BADURL_API_KEY: "sk-bad",
      LLM_BADURL_MODELS: "m",
    };
    const config = readLlmChannelConfig(reader(values));
    expect(config.channels).toEqual([]);
    expect(config.problems.map((p) => p.channel)).toEqual(["nokey", "nomodel", "badurl"]);
    expect(JSON.stringify(config.problems)).not.toMatch(/sk-/);
  });

  it("the simple forms become channels when LLM_CHANNELS gives none: OpenAI first, then DeepSeek", () => {
    const channels = llmChannels(
      reader({
        OPENAI_API_KEY: "sk-o",
        OPENAI_BASE_URL: "http://127.0.0.1:4010/v1",
        OPENAI_MODEL: "m1,m2",
        DEEPSEEK_API_KEY: "sk-d",
      }),
    );
    expect(channels.map((c) => [c.name, c.protocol, c.baseURL, c.models, c.apiKey])).toEqual([
      ["openai", "openai", "http://127.0.0.1:4010/v1", ["m1", "m2"], "sk-o"],
      ["deepseek", "openai-compatible", "https://api.deepseek.com", ["deepseek-chat"], "sk-d"],
    ]);
    expect(llmChannels(reader({ OPENAI_API_KEY: "sk-o" }))[0]!.models).toEqual(["gpt-4o-mini"]);
  });

  it("channels take precedence over the simple forms", () => {
    const channels = llmChannels(
      reader({
        LLM_CHANNELS: "a",
        LLM_A_BASE_URL: "http://a/v1",
        LLM_A_API_KEY: "ka",
        LLM_A_MODELS: "m",
        DEEPSEEK_API_KEY: "sk-d",
      }),
    );
    expect(channels.map((c) => c.name)).toEqual(["a"]);
  });

  it("describe shows names, hosts and models but no keys; secrets list covers keys and URL passwords", () => {
    const read = reader({
      LLM_CHANNELS: "a",
      LLM_A_BASE_URL: "https://user:pw-secret@a.example.com/v1",
      LLM_A_API_KEY: "sk-aaaa",
      LLM_A_MODELS: "m",
    });
    const shown = JSON.stringify(describeLlmChannels(read));
    expect(shown).toContain("a.example.com");
    expect(shown).not.toMatch(/sk-aaaa|pw-secret/);
    expect(channelSecrets(llmChannels(read)).sort()).toEqual(["pw-secret", "sk-aaaa"]);
  });

  it("splitList folds pasted separators", () => {
    expect(splitList(" a，b\nc;;d ,")).toEqual(["a", "b", "c", "d"]);
  });
});
