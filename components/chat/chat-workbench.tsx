"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { messageOf, RequestError } from "@/components/ui/request";
import { readFailure } from "@/components/auth/api-errors";
import { formatDateTime } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { TAgentContext } from "@/lib/agent/schemas";
import type { Locale } from "@/lib/i18n/config";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import * as api from "./api";
import { ChatMessage } from "./chat-message";
import { commandHints, Composer, contextLabel } from "./composer";
import { newUuid } from "./ids";
import {
  applyEvent,
  asStreamEvent,
  endWithoutDone,
  entryFromMessage,
  failEntry,
  pendingAnswer,
  userEntry,
  type ChatContext,
  type ChatEntry,
} from "./model";
import { SessionSidebar, type SessionListState } from "./session-sidebar";
import { SseParser } from "./sse";
import { skillInLanguage, type SkillChoices } from "./strategy-picker";
import { downloadText, transcriptFileName, transcriptMarkdown } from "./transcript";

type Texts = Dictionary["chatUi"];

/** docs/api.md §12.8: at most three strategies per turn (lib/agent/schemas.ts MAX_SKILLS_PER_TURN). */
const MAX_SKILLS = 3;
/** After a cancel, how long the stream may take to send its final `done` before the page lets go of it. */
const CANCEL_GRACE_MS = 8000;
const TITLE_CHARS = 60;

interface Running {
  requestId: string;
  cancelling: boolean;
}

type ShareState = { state: "idle" } | { state: "sending" } | { state: "sent" } | { state: "failed"; message: string };

export interface ChatWorkbenchProps {
  t: Texts;
  locale: Locale;
  timeZone: string;
  /** ?session=<id>: the conversation to reopen (the page's URL follows the open conversation). */
  initialSessionId: string | null;
  /** ?record=&code=&name=: "ask about this stock" from a report starts a new conversation about it. */
  initialContext: ChatContext | null;
}

function storedContext(context: TAgentContext | null | undefined): ChatContext | null {
  if (!context || (!context.stock_code && !context.record_id)) return null;
  return {
    stock_code: context.stock_code ?? null,
    stock_name: context.stock_name ?? null,
    record_id: context.record_id ?? null,
  };
}

function contextBody(context: ChatContext | null): TAgentContext | undefined {
  if (!context) return undefined;
  const body: TAgentContext = {};
  if (context.stock_code) body.stock_code = context.stock_code;
  if (context.stock_name) body.stock_name = context.stock_name;
  if (context.record_id) body.record_id = context.record_id;
  return body;
}

/** The URL names the open conversation, so a reload reopens it; without a server round trip (no navigation). */
function showInUrl(sessionId: string | null): void {
  window.history.replaceState(null, "", sessionId ? `/chat?session=${encodeURIComponent(sessionId)}` : "/chat");
}

function firstDraft(t: Texts, context: ChatContext | null): string {
  if (!context?.stock_code && !context?.stock_name) return "";
  return fmt(t.contextPrompt, { stock: contextLabel(t, { ...context, record_id: null }) });
}

// The Ask DSA page. Conversations on the left (a toggle on a phone), the open conversation with its
// streamed answer (POST /agent/chat/stream read as SSE over fetch), the question box with strategies and commands.
export function ChatWorkbench({ t, locale, timeZone, initialSessionId, initialContext }: ChatWorkbenchProps) {
  const language = locale === "en" ? "en" : "zh";
  const [sessions, setSessions] = useState<SessionListState>({ items: null, error: null });
  const [sessionId, setSessionId] = useState<string | null>(initialSessionId);
  const [title, setTitle] = useState<string | null>(null);
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [view, setView] = useState<{ loading: boolean; error: string | null }>({
    loading: initialSessionId !== null,
    error: null,
  });
  const [context, setContext] = useState<ChatContext | null>(initialContext);
  const [draft, setDraft] = useState(() => firstDraft(t, initialContext));
  const [choices, setChoices] = useState<SkillChoices | null>(null);
  const [skillsError, setSkillsError] = useState<string | null>(null);
  // null until the strategies are known (the request then leaves `skills` out: the session keeps its choice).
  const [selected, setSelected] = useState<string[] | null>(null);
  const [status, setStatus] = useState<api.AgentStatus | null>(null);
  const [statusError, setStatusError] = useState<string | null>(null);
  const [running, setRunning] = useState<Running | null>(null);
  const [share, setShare] = useState<ShareState>({ state: "idle" });

  /** Bumped whenever another conversation is shown, so a late answer for the previous one is dropped. */
  const viewToken = useRef(0);
  const runningRef = useRef(false);
  const abortRef = useRef<AbortController | null>(null);
  const cancelRequested = useRef(false);
  const cancelTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const followLog = useRef(true);

  const refreshSessions = useCallback(async () => {
    try {
      const list = await api.listSessions();
      setSessions({ items: list.sessions, error: null });
    } catch (error) {
      setSessions((previous) => ({ items: previous.items, error: messageOf(error) }));
    }
  }, []);

  const loadSession = useCallback(async (id: string, token: number) => {
    try {
      const detail = await api.getSession(id);
      if (token !== viewToken.current) return;
      setEntries(detail.messages.map(entryFromMessage));
      setTitle(detail.title || null);
      setContext(storedContext(detail.context));
      const chosen = detail.session_state?.selected_skill_ids;
      if (chosen) setSelected(chosen.slice(0, MAX_SKILLS));
      setView({ loading: false, error: null });
    } catch (error) {
      if (token !== viewToken.current) return;
      if (error instanceof RequestError && error.status === 404) {
        // Deleted meanwhile (or a stale link): a new conversation instead.
        setSessionId(null);
        setEntries([]);
        setView({ loading: false, error: null });
        showInUrl(null);
        return;
      }
      setView({ loading: false, error: messageOf(error) });
    }
  }, []);

  useEffect(() => {
    let live = true;
    void refreshSessions();
    api.listSkills().then(
      (list) => {
        if (!live) return;
        const skills = list.skills.map((skill) => skillInLanguage(skill, language));
        setChoices({ skills, defaultId: list.default_skill_id, problems: list.problems ?? [] });
        setSelected(
          (previous) =>
            previous ?? (list.skills.some((s) => s.id === list.default_skill_id) ? [list.default_skill_id] : []),
        );
      },
      (error) => live && setSkillsError(messageOf(error)),
    );
    api.agentStatus().then(
      (answer) => live && setStatus(answer),
      (error) => live && setStatusError(messageOf(error)),
    );
    if (initialSessionId) void loadSession(initialSessionId, viewToken.current);
    return () => {
      live = false;
    };
  }, [initialSessionId, language, loadSession, refreshSessions]);

  // Leaving the page ends the read of a running answer (the server keeps the partial answer).
  useEffect(
    () => () => {
      abortRef.current?.abort();
      if (cancelTimer.current) clearTimeout(cancelTimer.current);
    },
    [],
  );

  // Follow the conversation as it grows, unless the reader scrolled up.
  useEffect(() => {
    const log = logRef.current;
    if (log && followLog.current) log.scrollTop = log.scrollHeight;
  }, [entries]);

  function defaultSkills(): string[] | null {
    if (!choices) return null;
    return choices.skills.some((s) => s.id === choices.defaultId) ? [choices.defaultId] : [];
  }

  function show(id: string | null) {
    viewToken.current += 1;
    setSessionId(id);
    setEntries([]);
    setTitle(id ? (sessions.items?.find((s) => s.session_id === id)?.title ?? null) : null);
    setContext(null);
    setShare({ state: "idle" });
    setView({ loading: id !== null, error: null });
    followLog.current = true;
    showInUrl(id);
    return viewToken.current;
  }

  function openSession(id: string) {
    if (runningRef.current) return;
    const token = show(id);
    void loadSession(id, token);
  }

  function newChat() {
    if (runningRef.current) return;
    show(null);
    setDraft("");
    setSelected(defaultSkills());
  }

  async function removeSession(id: string) {
    await api.deleteSession(id);
    if (id === sessionId) newChat();
    setSessions((previous) => ({ ...previous, items: previous.items?.filter((s) => s.session_id !== id) ?? null }));
    await refreshSessions();
  }

  async function send(text: string) {
    const message = text.trim();
    if (!message || runningRef.current) return;
    runningRef.current = true;
    cancelRequested.current = false;
    const sid = sessionId ?? newUuid();
    const isNew = sessionId === null;
    const requestId = newUuid();
    const answerKey = `a-${requestId}`;
    const token = viewToken.current;
    setEntries((list) => [...list, userEntry(`u-${requestId}`, message), pendingAnswer(answerKey)]);
    setSessionId(sid);
    if (isNew) {
      setTitle(message.slice(0, TITLE_CHARS));
      showInUrl(sid);
    }
    setDraft("");
    setShare({ state: "idle" });
    setRunning({ requestId, cancelling: false });
    followLog.current = true;

    const update = (change: (entry: ChatEntry) => ChatEntry) => {
      if (token !== viewToken.current) return;
      setEntries((list) => list.map((entry) => (entry.key === answerKey ? change(entry) : entry)));
    };
    const controller = new AbortController();
    abortRef.current = controller;
    let finished = false;
    try {
      const response = await fetch(api.STREAM_URL, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({
          message,
          session_id: sid,
          request_id: requestId,
          ...(selected !== null ? { skills: selected.slice(0, MAX_SKILLS) } : {}),
          ...(context ? { context: contextBody(context) } : {}),
          language,
          stream_deltas: true,
        }),
        credentials: "same-origin",
        cache: "no-store",
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const failure = await readFailure(response);
        update((entry) => failEntry(entry, failure.message));
        finished = true;
        return;
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const parser = new SseParser();
      const handle = (payloads: unknown[]) => {
        for (const payload of payloads) {
          const event = asStreamEvent(payload);
          if (!event) continue;
          if (
            (event.type === "accepted" || event.type === "done") &&
            event.session_id &&
            event.session_id !== sid &&
            token === viewToken.current
          ) {
            setSessionId(event.session_id);
            showInUrl(event.session_id);
          }
          if (event.type === "accepted" && isNew) void refreshSessions();
          if (event.type === "done" || event.type === "error") finished = true;
          update((entry) => applyEvent(entry, event));
        }
      };
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        handle(parser.push(decoder.decode(value, { stream: true })));
      }
      handle(parser.push(decoder.decode()));
      handle(parser.end());
    } catch (error) {
      if (!controller.signal.aborted) {
        update((entry) => failEntry(entry, messageOf(error)));
        finished = true;
      }
    } finally {
      if (!finished)
        update((entry) => endWithoutDone(entry, cancelRequested.current || controller.signal.aborted, t.streamClosed));
      if (cancelTimer.current) clearTimeout(cancelTimer.current);
      cancelTimer.current = null;
      abortRef.current = null;
      runningRef.current = false;
      setRunning(null);
      void refreshSessions();
    }
  }

  async function cancel() {
    if (!running || running.cancelling) return;
    cancelRequested.current = true;
    setRunning({ ...running, cancelling: true });
    try {
      await api.cancelTurn(running.requestId);
    } catch (error) {
      // 404 request_not_active: the turn is ending on its own (its `done` is on the way). Anything else: stop reading.
      if (!(error instanceof RequestError && error.status === 404)) abortRef.current?.abort();
    }
    // The stream should now end with done {cancelled: true}; if it does not, let go of it.
    if (abortRef.current) {
      const controller = abortRef.current;
      cancelTimer.current = setTimeout(() => controller.abort(), CANCEL_GRACE_MS);
    }
  }

  const shownTitle = title || entries.find((e) => e.role === "user")?.content.slice(0, TITLE_CHARS) || t.untitled;
  const finishedEntries = entries.filter((e) => e.state !== "streaming");

  function transcript(): string {
    return transcriptMarkdown(t, shownTitle, entries, formatDateTime(new Date().toISOString(), timeZone));
  }

  async function sendTranscript() {
    setShare({ state: "sending" });
    try {
      const answer = await api.sendToChannels(transcript(), fmt(t.transcriptTitle, { title: shownTitle }));
      setShare(
        answer.success
          ? { state: "sent" }
          : { state: "failed", message: answer.message || answer.error || t.unknownError },
      );
    } catch (error) {
      setShare({ state: "failed", message: messageOf(error) });
    }
  }

  const locked = running !== null;
  const actionButton =
    "inline-flex h-7 items-center rounded-md border border-line bg-surface px-2.5 text-xs font-medium whitespace-nowrap hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-60";

  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-[15rem_minmax(0,1fr)] lg:grid-cols-[17rem_minmax(0,1fr)]">
      <div className="min-w-0">
        <SessionSidebar
          t={t}
          list={sessions}
          currentId={sessionId}
          timeZone={timeZone}
          locked={locked}
          onNew={newChat}
          onOpen={openSession}
          onDelete={removeSession}
        />
      </div>

      <Panel className="flex min-w-0 flex-col">
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-2">
          <h2 data-testid="chat-title" className="min-w-0 flex-1 truncate text-sm font-semibold">
            {shownTitle}
          </h2>
          <div role="group" aria-label={t.sessionActions} className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              className={actionButton}
              disabled={finishedEntries.length === 0 || locked}
              onClick={() => downloadText(transcriptFileName(sessionId, new Date()), transcript())}
            >
              {t.exportMarkdown}
            </button>
            <button
              type="button"
              className={actionButton}
              disabled={finishedEntries.length === 0 || locked || share.state === "sending"}
              aria-busy={share.state === "sending"}
              onClick={sendTranscript}
            >
              {share.state === "sending" ? t.sending : t.sendToChannels}
            </button>
          </div>
          {share.state === "sent" ? (
            <p
              role="status"
              data-testid="chat-share-status"
              className="w-full text-xs text-emerald-700 dark:text-emerald-400"
            >
              {t.sent}
            </p>
          ) : share.state === "failed" ? (
            <p role="alert" data-testid="chat-share-status" className="w-full text-xs text-red-700 dark:text-red-400">
              {fmt(t.sendFailed, { message: share.message })}
            </p>
          ) : null}
        </div>

        <div
          ref={logRef}
          role="log"
          aria-label={t.conversationLabel}
          data-testid="chat-log"
          onScroll={() => {
            const log = logRef.current;
            if (log) followLog.current = log.scrollHeight - log.scrollTop - log.clientHeight < 48;
          }}
          className={cx("min-h-56 overflow-y-auto px-3 py-3", "max-h-[max(22rem,calc(100dvh-24rem))]")}
        >
          {view.loading ? (
            <p className="text-sm text-muted">{t.sessionLoading}</p>
          ) : view.error ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {fmt(t.sessionFailed, { message: view.error })}
            </p>
          ) : entries.length === 0 ? (
            <div data-testid="chat-empty" className="py-6 text-center">
              <p className="text-sm font-medium">{t.emptyTitle}</p>
              <p className="mx-auto mt-1 max-w-md text-sm text-muted">{t.emptyBody}</p>
            </div>
          ) : (
            <ol className="space-y-3">
              {entries.map((entry) => (
                <ChatMessage key={entry.key} t={t} entry={entry} />
              ))}
            </ol>
          )}
        </div>

        <Composer
          t={t}
          draft={draft}
          onDraft={setDraft}
          onSend={send}
          onCancel={cancel}
          running={locked}
          cancelling={running?.cancelling ?? false}
          context={context}
          onClearContext={() => setContext(null)}
          choices={choices}
          skillsError={skillsError}
          selected={selected ?? []}
          maxSkills={MAX_SKILLS}
          onSelect={setSelected}
          commands={commandHints(t, status?.commands)}
          available={status ? status.available : null}
          statusError={statusError}
        />
      </Panel>
    </div>
  );
}
