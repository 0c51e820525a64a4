"use client";

import Link from "next/link";
import { useId, useRef, type FormEvent, type KeyboardEvent } from "react";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { Spinner } from "./chat-message";
import type { ChatContext } from "./model";
import { StrategyPicker, type SkillChoices } from "./strategy-picker";

type Texts = Dictionary["chatUi"];

/** The commands answered without a language model, with their arguments; GET /agent/status names them. */
const COMMAND_ARGS: Record<string, (t: Texts) => string> = {
  "/analyze": (t) => `<${t.argCode}>`,
  "/quote": (t) => `<${t.argCode}>`,
  "/market": (t) => `[${t.argMarket}]`,
  "/history": (t) => `<${t.argCode}>`,
  "/signals": (t) => `[${t.argCode}]`,
  "/backtest": (t) => `<${t.argCode}>`,
  "/help": () => "",
};

/** The commands to list: the service's own names (bare, such as "/quote") with their arguments spelled out. */
export function commandHints(t: Texts, names: readonly string[] | null | undefined): string[] {
  const list = names && names.length > 0 ? names : Object.keys(COMMAND_ARGS);
  return list.map((name) => {
    const args = COMMAND_ARGS[name]?.(t);
    return args ? `${name} ${args}` : name;
  });
}

const BUTTON =
  "inline-flex h-8 items-center justify-center gap-1.5 rounded-md px-3 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-60";

export function contextLabel(t: Texts, context: ChatContext): string {
  const code = context.stock_code ?? "";
  const stock =
    context.stock_name && code ? fmt(t.contextStock, { name: context.stock_name, code }) : context.stock_name || code;
  return [stock, context.record_id ? fmt(t.contextRecord, { id: context.record_id }) : ""].filter(Boolean).join(" · ");
}

interface ComposerProps {
  t: Texts;
  draft: string;
  onDraft: (text: string) => void;
  onSend: (text: string) => void;
  onCancel: () => void;
  running: boolean;
  cancelling: boolean;
  context: ChatContext | null;
  onClearContext: () => void;
  choices: SkillChoices | null;
  skillsError: string | null;
  selected: readonly string[];
  maxSkills: number;
  onSelect: (ids: string[]) => void;
  commands: readonly string[];
  /** GET /agent/status: false when no LLM channel is configured; null while unknown. */
  available: boolean | null;
  statusError: string | null;
}

// The question box: Enter sends (not while an input method is composing), Shift+Enter breaks the line; the
// strategy picker, the stock context of the conversation, and the commands that need no language model.
export function Composer(props: ComposerProps) {
  const { t, draft, onDraft, onSend, onCancel, running, cancelling, context } = props;
  const inputId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLTextAreaElement>(null);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!running && draft.trim()) onSend(draft);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    submit();
  }

  function insert(command: string) {
    // "/quote <code>" → "/quote ": the placeholder is for the reader, not for the input.
    const head = command.replace(/\s*[<[].*$/, "");
    onDraft(`${head} `);
    inputRef.current?.focus();
  }

  return (
    <form
      aria-label={t.composerLabel}
      onSubmit={submit}
      className="border-t border-line px-3 py-2.5"
      data-testid="chat-composer"
    >
      {context ? (
        <div className="mb-2 flex flex-wrap items-center gap-2">
          <span className="text-xs text-muted">{t.contextLabel}</span>
          <span
            data-testid="chat-context"
            className="inline-flex max-w-full min-w-0 items-center gap-1 rounded-full border border-accent/40 bg-accent-soft py-0.5 pr-1 pl-2.5 text-xs font-medium text-accent"
          >
            <span className="truncate">{contextLabel(t, context)}</span>
            <button
              type="button"
              aria-label={t.contextRemove}
              title={t.contextRemove}
              onClick={props.onClearContext}
              disabled={running}
              className="inline-flex size-5 shrink-0 items-center justify-center rounded-full hover:bg-accent/15 focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-50"
            >
              <span aria-hidden="true">×</span>
            </button>
          </span>
        </div>
      ) : null}
      <label htmlFor={inputId} className="sr-only">
        {t.inputLabel}
      </label>
      <textarea
        ref={inputRef}
        id={inputId}
        value={draft}
        onChange={(event) => onDraft(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={t.placeholder}
        aria-describedby={hintId}
        rows={3}
        maxLength={8000}
        className="block w-full resize-y rounded-md border border-line bg-canvas px-2.5 py-2 text-sm leading-6 placeholder:text-muted focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-accent"
      />
      <div className="mt-2 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1">
          {props.choices ? (
            <StrategyPicker
              t={t}
              choices={props.choices}
              selected={props.selected}
              max={props.maxSkills}
              disabled={running}
              onChange={props.onSelect}
            />
          ) : props.skillsError ? (
            <p className="text-xs text-amber-700 dark:text-amber-400">
              {fmt(t.skillsFailed, { message: props.skillsError })}
            </p>
          ) : null}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {running ? (
            <button
              type="button"
              onClick={onCancel}
              disabled={cancelling}
              aria-label={cancelling ? undefined : t.cancelAnswer}
              className={cx(BUTTON, "border border-line bg-surface font-medium hover:bg-subtle")}
            >
              {cancelling ? <Spinner /> : null}
              {cancelling ? t.cancelling : t.cancel}
            </button>
          ) : null}
          <button
            type="submit"
            disabled={running || !draft.trim()}
            aria-busy={running}
            className={cx(BUTTON, "bg-accent text-accent-fg hover:bg-accent/90")}
          >
            {running ? <Spinner /> : null}
            {t.send}
          </button>
        </div>
      </div>
      <div
        id={hintId}
        className="mt-2 flex flex-wrap items-center gap-1 text-xs text-muted"
        data-testid="chat-commands"
      >
        <span className="mr-0.5">{t.commandsHint}</span>
        {props.commands.map((command) => (
          <button
            key={command}
            type="button"
            aria-label={fmt(t.insertCommand, { command })}
            onClick={() => insert(command)}
            className="rounded border border-line bg-subtle px-1.5 py-0.5 text-[11px] text-fg hover:border-accent/50 focus-visible:outline-2 focus-visible:outline-accent"
          >
            {command}
          </button>
        ))}
      </div>
      {props.available === false ? (
        <p
          role="note"
          data-testid="chat-no-llm"
          className="mt-2 rounded border border-amber-300 bg-amber-50 px-2 py-1.5 text-xs leading-5 text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-300"
        >
          {t.noLlm}{" "}
          <Link href="/settings" className="font-medium underline underline-offset-2">
            {t.settingsLink}
          </Link>
        </p>
      ) : null}
      {props.statusError ? (
        <p className="mt-2 text-xs text-muted">{fmt(t.statusFailed, { message: props.statusError })}</p>
      ) : null}
    </form>
  );
}
