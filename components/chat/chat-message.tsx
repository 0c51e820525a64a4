"use client";

import { useDeferredValue } from "react";
import { CopyButton } from "@/components/history/copy-button";
import { fmt } from "@/components/settings/format";
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/cx";
import type { TAnswerChecks } from "@/lib/agent/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { ChatMarkdown } from "./chat-markdown";
import type { ChatEntry, Progress, ToolStep } from "./model";

type Texts = Dictionary["chatUi"];

export function Spinner({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        "inline-block size-3 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent",
        className,
      )}
    />
  );
}

function progressText(t: Texts, progress: Progress): string {
  switch (progress.kind) {
    case "connecting":
      return t.connecting;
    case "thinking":
      return progress.message ?? fmt(t.thinkingStep, { step: progress.step });
    case "tool":
      return fmt(t.toolRunningStatus, { name: progress.name });
    case "generating":
      return progress.message ?? t.generating;
  }
}

function ToolSteps({ t, steps }: { t: Texts; steps: ToolStep[] }) {
  return (
    <ol aria-label={t.toolSteps} className="mb-2 space-y-0.5 border-b border-line pb-2 text-xs">
      {steps.map((step, index) => (
        <li
          key={`${index}-${step.tool}`}
          data-testid="chat-tool-step"
          data-tool={step.tool}
          data-state={step.state}
          className="flex min-w-0 flex-wrap items-center gap-x-1.5"
        >
          {step.state === "running" ? (
            <Spinner className="text-accent" />
          ) : (
            <span
              aria-hidden="true"
              className={cx(
                "w-3 text-center font-semibold",
                step.state === "ok" ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400",
              )}
            >
              {step.state === "ok" ? "✓" : "✗"}
            </span>
          )}
          <span className="sr-only">
            {step.state === "running" ? t.toolRunning : step.state === "ok" ? t.toolOk : t.toolFailed}
          </span>
          <span className="font-medium">{step.name}</span>
          {step.duration !== null ? (
            <span data-testid="chat-tool-duration" className="text-muted tabular-nums">
              {fmt(t.seconds, { value: step.duration.toFixed(1) })}
            </span>
          ) : null}
          {step.error ? <span className="min-w-0 break-words text-red-700 dark:text-red-400">{step.error}</span> : null}
        </li>
      ))}
    </ol>
  );
}

function Checks({ t, checks }: { t: Texts; checks: TAnswerChecks }) {
  const unverified = checks.unverified;
  if (unverified.length > 0 || checks.key_unverified) {
    const strong = checks.key_unverified;
    const figures = unverified.join(t.figureSeparator);
    return (
      <div
        data-testid="chat-check-warning"
        data-level={strong ? "key" : "minor"}
        className={cx(
          "mt-2 rounded border px-2 py-1.5 text-xs leading-5",
          strong
            ? "border-red-300 bg-red-50 font-medium text-red-800 dark:border-red-800 dark:bg-red-950/40 dark:text-red-300"
            : "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-300",
        )}
      >
        <p>
          <span aria-hidden="true">⚠ </span>
          {fmt(strong ? t.keyUnverifiedWarning : t.unverifiedWarning, { count: unverified.length, figures })}
        </p>
        {checks.regenerated ? <p className="mt-0.5 font-normal">{t.regenerated}</p> : null}
      </div>
    );
  }
  if (checks.status === "ok" && checks.figures.length > 0) {
    return (
      <p data-testid="chat-check-ok" className="mt-2 text-xs text-muted">
        <span aria-hidden="true" className="text-emerald-700 dark:text-emerald-400">
          ✓{" "}
        </span>
        {fmt(t.checksOk, { count: checks.figures.length })}
      </p>
    );
  }
  return null;
}

function UserBubble({ t, entry }: { t: Texts; entry: ChatEntry }) {
  return (
    <li data-testid="chat-message" data-role="user" className="flex justify-end pl-8 sm:pl-16">
      <div className="max-w-full min-w-0 rounded-lg rounded-br-sm bg-accent-soft px-3 py-2 text-sm leading-6 break-words whitespace-pre-wrap">
        <span className="sr-only">{t.you}: </span>
        {entry.content}
      </div>
    </li>
  );
}

function AnswerBubble({ t, entry }: { t: Texts; entry: ChatEntry }) {
  const streaming = entry.state === "streaming";
  // While deltas arrive, Markdown is re-rendered at the pace React can keep up with.
  const content = useDeferredValue(entry.content);
  const unverified = entry.checks?.unverified ?? [];
  return (
    <li
      data-testid="chat-message"
      data-role="assistant"
      data-state={entry.state}
      aria-busy={streaming}
      className="flex pr-0 sm:pr-8"
    >
      <div className="w-full min-w-0 rounded-lg rounded-bl-sm border border-line bg-surface px-3 py-2">
        <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-muted">
          <span className="font-semibold text-accent">{t.assistant}</span>
          {entry.state === "cancelled" ? (
            <span data-testid="chat-cancelled">
              <Badge>{t.cancelled}</Badge>
            </span>
          ) : null}
        </div>
        {entry.tools.length > 0 ? <ToolSteps t={t} steps={entry.tools} /> : null}
        {content ? (
          <ChatMarkdown
            source={streaming ? content : entry.content}
            unverified={unverified}
            unverifiedTitle={t.unverifiedTitle}
          />
        ) : null}
        {streaming && entry.progress ? (
          <p role="status" data-testid="chat-progress" className="mt-1 flex items-center gap-1.5 text-xs text-muted">
            <Spinner />
            {progressText(t, entry.progress)}
          </p>
        ) : null}
        {entry.checks && !streaming ? <Checks t={t} checks={entry.checks} /> : null}
        {entry.state === "error" ? (
          <p
            role="alert"
            data-testid="chat-error"
            className="mt-1 text-sm font-medium break-words text-red-700 dark:text-red-400"
          >
            {fmt(t.errorText, { message: entry.error ?? t.unknownError })}
          </p>
        ) : null}
        {!streaming && entry.content ? (
          <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
            <CopyButton text={entry.content} label={t.copy} copiedLabel={t.copied} failedLabel={t.copyFailed} />
            {entry.model ? <span>{fmt(t.model, { model: entry.model })}</span> : null}
          </div>
        ) : null}
      </div>
    </li>
  );
}

export function ChatMessage({ t, entry }: { t: Texts; entry: ChatEntry }) {
  return entry.role === "user" ? <UserBubble t={t} entry={entry} /> : <AnswerBubble t={t} entry={entry} />;
}
