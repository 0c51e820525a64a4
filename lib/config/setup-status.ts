import { readLlmChannelConfig } from "@/lib/analysis/llm/channels";
import { storedPasswordHash } from "@/lib/auth/password-store";
import { marketDataReachability } from "@/lib/market/reachability";
import { configuredTargets } from "@/lib/notify/channels";
import { getRawSetting, getSettings } from "@/lib/settings/settings";
import type { TSetupCheck, TSetupStatusResponse } from "./setup-status-schemas";

// What a new install still needs, read from the live settings. Required: what the service cannot do its
// daily job without (a data source and the stocks to follow). Everything else has a working fallback (rule
// reports without a model, the web UI without notifications), so it is optional and never blocks the banner.

type Check = Omit<TSetupCheck, "next_step"> & { next_step?: string | null };

async function dataSourceCheck(): Promise<Check> {
  const sources = getSettings().MARKET_DATA_SOURCES;
  const set = getRawSetting("MARKET_DATA_SOURCES") !== undefined;
  const base = { key: "MARKET_DATA_SOURCES", title: "Market data sources", category: "base", required: true } as const;
  if (sources.length === 0)
    return {
      ...base,
      status: "needs_action",
      message: "No market data source is listed",
      next_step: "List at least one source, e.g. eastmoney,tencent,yahoo",
    };
  // Listed is not enough: a first run offline has the default sources, none of which answers.
  const reach = await marketDataReachability();
  if (reach.unreachable) {
    const failed = reach.network.map((r) => `${r.provider} (${r.reason})`).join(", ");
    return {
      ...base,
      status: "needs_action",
      message: `No market data source answers: ${failed}`,
      next_step: "Use the sample data (MARKET_DATA_SOURCES=sample) or upload CSV files in Settings → Data",
    };
  }
  const sampleOnly = sources.every((s) => s === "sample");
  return {
    ...base,
    status: set ? "configured" : "inherited",
    message: sampleOnly
      ? "Sample data only: every report is labelled as sample"
      : `Sources in order: ${sources.join(", ")}`,
  };
}

function stockListCheck(): Check {
  const stocks = getSettings().STOCK_LIST;
  const base = { key: "STOCK_LIST", title: "Watchlist (STOCK_LIST)", category: "base", required: true } as const;
  if (stocks.length === 0) {
    return {
      ...base,
      status: "needs_action",
      message: "No stocks to follow: the scheduled run and the home page need a watchlist",
      next_step: "Add stock codes, e.g. 600519,hk00700,AAPL",
    };
  }
  return { ...base, status: "configured", message: `${stocks.length} stock${stocks.length === 1 ? "" : "s"} followed` };
}

function llmCheck(): Check {
  const config = readLlmChannelConfig();
  const base = { key: "LLM_CHANNELS", title: "AI model channel", category: "ai_model", required: false } as const;
  if (config.channels.length > 0) {
    const names = config.channels.map((c) => c.name).join(", ");
    return { ...base, status: "configured", message: `Channels in order: ${names}` };
  }
  if (config.problems.length > 0) {
    return {
      ...base,
      status: "needs_action",
      message: `A configured channel cannot be used: ${config.problems[0]!.reason}`,
      next_step: "Complete the channel's base URL, key and models",
    };
  }
  return {
    ...base,
    status: "optional",
    message: "No model configured: reports are rule-based",
    next_step: "Add an OpenAI-compatible channel for written analyses",
  };
}

function notificationCheck(): Check {
  const targets = configuredTargets(getSettings());
  const base = {
    key: "notification_channels",
    title: "Notification channels",
    category: "notification",
    required: false,
  } as const;
  if (targets.length > 0)
    return {
      ...base,
      status: "configured",
      message: `${targets.length} channel${targets.length === 1 ? "" : "s"} configured`,
    };
  return {
    ...base,
    status: "optional",
    message: "Reports and alerts stay in the web UI",
    next_step: "Add a webhook, Telegram, email or another channel",
  };
}

async function adminAuthCheck(): Promise<Check> {
  const enabled = getSettings().ADMIN_AUTH_ENABLED;
  const hasPassword = (await storedPasswordHash()) !== null;
  const base = { key: "ADMIN_AUTH_ENABLED", title: "Admin login", category: "system", required: false } as const;
  if (enabled && hasPassword)
    return { ...base, status: "configured", message: "The web UI and API need a login or an API token" };
  return {
    ...base,
    status: "optional",
    message: "Anyone who can reach the service can use it",
    next_step: "Turn on admin login before exposing the service beyond this machine",
  };
}

function scheduleCheck(): Check {
  const s = getSettings();
  const base = {
    key: "SCHEDULE_ENABLED",
    title: "Daily scheduled analysis",
    category: "system",
    required: false,
  } as const;
  if (s.SCHEDULE_ENABLED)
    return { ...base, status: "configured", message: `Runs at ${s.SCHEDULE_TIME} on trading days` };
  return {
    ...base,
    status: "optional",
    message: "Analyses run only when asked",
    next_step: "Turn on the schedule to analyse the watchlist every trading day",
  };
}

export async function setupStatus(): Promise<TSetupStatusResponse> {
  const checks: TSetupCheck[] = [
    await dataSourceCheck(),
    stockListCheck(),
    llmCheck(),
    notificationCheck(),
    await adminAuthCheck(),
    scheduleCheck(),
  ].map((c) => ({
    ...c,
    next_step: c.next_step ?? null,
  }));
  const missing = checks.filter((c) => c.required && c.status === "needs_action");
  const next = missing[0] ?? checks.find((c) => c.status === "needs_action") ?? null;
  return {
    is_complete: missing.length === 0,
    ready_for_smoke: checks.find((c) => c.key === "MARKET_DATA_SOURCES")?.status !== "needs_action",
    required_missing_keys: missing.map((c) => c.key),
    next_step_key: next?.key ?? null,
    checks,
  };
}
