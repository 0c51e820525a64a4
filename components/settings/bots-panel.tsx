"use client";

import { useState } from "react";
import { postJson } from "@/components/auth/api-errors";
import { BUTTON_SECONDARY, FormMessage } from "@/components/auth/password-input";
import { useFormatTime } from "@/components/shell/time-zone";
import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import type { TBotSelfTest, TBotStatus } from "@/lib/bots/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { fmt } from "./format";

type BotTexts = Dictionary["botsUi"];
type PlatformStatus = TBotStatus["platforms"][number];

function PlatformRow({ bot, t, origin }: { bot: PlatformStatus; t: BotTexts; origin: string }) {
  const formatTime = useFormatTime();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TBotSelfTest | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function selfTest() {
    setBusy(true);
    setFailure(null);
    setResult(null);
    const answer = await postJson(`/api/v1/bots/${bot.platform}/self-test`);
    if (answer.ok) setResult((await answer.res.json()) as TBotSelfTest);
    else setFailure(fmt(t.requestFailed, { message: answer.failure?.message ?? "network error" }));
    setBusy(false);
  }

  return (
    <li className="flex flex-col gap-1 border-t border-line py-2 text-xs" data-testid={`bot-${bot.platform}`}>
      <div className="flex items-center gap-2">
        <span className="text-sm font-medium">{t.platforms[bot.platform]}</span>
        <Badge tone={bot.enabled ? "accent" : "neutral"}>{bot.enabled ? t.on : t.off}</Badge>
        <button
          type="button"
          disabled={busy}
          onClick={selfTest}
          className={`${BUTTON_SECONDARY} ml-auto min-h-9 px-3 py-1 text-xs`}
        >
          {busy ? t.testing : t.selfTest}
        </button>
      </div>
      {bot.missing.length > 0 && bot.enabled ? (
        <span className="text-red-700 dark:text-red-300">{fmt(t.missing, { keys: bot.missing.join(", ") })}</span>
      ) : null}
      {bot.endpoint ? (
        <span className="break-all text-muted">{fmt(t.endpoint, { url: `${origin}${bot.endpoint}` })}</span>
      ) : bot.enabled ? (
        <span className="text-muted">{t.polling}</span>
      ) : null}
      <span className="text-muted">
        {fmt(t.allowlisted, { count: bot.allowlisted })} ·{" "}
        {fmt(t.counts, {
          received: bot.received_24h,
          answered: bot.answered_24h,
          refused: bot.refused_24h,
          failed: bot.failed_24h,
        })}
      </span>
      {bot.last_message_at ? (
        <span className="text-muted">{fmt(t.lastMessage, { at: formatTime(bot.last_message_at) })}</span>
      ) : null}
      {result ? (
        <div role="status" className="flex flex-col gap-0.5" data-testid="bot-self-test">
          <FormMessage tone={result.ok ? "success" : "error"}>{result.ok ? t.testPassed : t.testFailed}</FormMessage>
          <ul className="flex flex-col gap-0.5">
            {result.checks.map((check) => (
              <li key={check.name} className="break-words">
                <span aria-hidden="true">{check.ok ? "✓" : "✗"}</span>{" "}
                <span className="font-medium">{t.checks[check.name]}</span>
                {"："} {check.detail}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {failure ? <FormMessage tone="error">{failure}</FormMessage> : null}
    </li>
  );
}

// The chat bots at a glance: which are on, what they still need, the URL each platform calls, the last day's
// messages, and a self-test that asks the platform (settings are edited in the form above).
export function BotsPanel({ t, status, origin }: { t: BotTexts; status: TBotStatus; origin: string }) {
  return (
    <Panel className="flex flex-col gap-2 px-4 py-3">
      <h2 id="chat-bots" className="text-sm font-semibold">
        {t.title}
      </h2>
      <p className="text-xs leading-5 text-muted">{t.intro}</p>
      <ul aria-label={t.title}>
        {status.platforms.map((bot) => (
          <PlatformRow key={bot.platform} bot={bot} t={t} origin={origin} />
        ))}
      </ul>
    </Panel>
  );
}
