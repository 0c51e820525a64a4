import {
  generateText,
  stepCountIs,
  streamText,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type StepResult,
  type ToolSet,
} from "ai";
import { channelSecrets, llmChannels } from "@/lib/analysis/llm/channels";
import { classify, httpModelFactory, scrub } from "@/lib/analysis/llm/generate-report";
import { normalizeReportLanguage } from "@/lib/analysis/engine";
import { now } from "@/lib/clock";
import { sensitiveSettingValues } from "@/lib/config/secret-values";
import { getSettings } from "@/lib/settings/settings";
import { newId } from "@/lib/ids";
import { logger } from "@/lib/log/logger";
import { recordLlmUsage } from "@/lib/usage/record-usage";
import { CANCELLED, registerTurn } from "./active-turns";
import { isCommand, noLlmAnswer, runCommand } from "./commands";
import { chatModelChoices, type ChatModelChoice } from "./models";
import { checkAnswer, turnCodes, turnSources } from "./number-check";
import { buildSystemPrompt, regenerationPrompt } from "./prompt";
import type { AgentStreamEvent, TAgentChatRequest, TAnswerChecks } from "./schemas";
import { appendMessage, openSession, recentMessages } from "./sessions";
import { resolveSkills, type LoadedSkill } from "./skills";
import { ToolRecorder, buildAgentTools } from "./tools";
import type { Language } from "./tool-data";

// One chat turn: store the question, answer it (a slash command from the service's own data, or the
// model with the tools), check the answer's figures against what the tools returned, store the answer, and
// report every step through `emit` (the SSE stream, or nothing for POST /agent/chat). The turn is bounded by
// AGENT_MAX_STEPS tool steps, AGENT_TURN_TIMEOUT_SEC and AGENT_TOKEN_BUDGET, and stops at once on cancel.

export interface TurnResult {
  success: boolean;
  content: string;
  sessionId: string;
  requestId: string;
  cancelled: boolean;
  error: string | null;
  message: string | null;
  checks: TAnswerChecks | null;
  toolCalls: ToolRecorder["calls"];
  totalSteps: number;
  model: string | null;
}

export interface TurnOptions {
  emit?: (event: AgentStreamEvent) => void;
  /** The client went away (request closed): the turn stops like a cancel. */
  signal?: AbortSignal;
  /** Tests: a model per choice instead of HTTP. */
  modelFor?: (choice: ChatModelChoice) => LanguageModel;
}

export interface PreparedTurn {
  requestId: string;
  sessionId: string;
  run: () => Promise<TurnResult>;
}

const log = logger.child({ component: "agent" });

/** Registers the turn (409 request_conflict for a running request_id) before anything is streamed. */
export function prepareTurn(request: TAgentChatRequest, options: TurnOptions = {}): PreparedTurn {
  const requestId = request.request_id ?? newId();
  const sessionId = request.session_id ?? newId();
  const controller = new AbortController();
  const unregister = registerTurn(requestId, controller);
  const onClientGone = () => controller.abort(CANCELLED);
  options.signal?.addEventListener("abort", onClientGone, { once: true });
  return {
    requestId,
    sessionId,
    run: async () => {
      try {
        return await runTurn(request, { requestId, sessionId, controller }, options);
      } finally {
        options.signal?.removeEventListener("abort", onClientGone);
        unregister();
      }
    },
  };
}

interface TurnIds {
  requestId: string;
  sessionId: string;
  controller: AbortController;
}

function languageOf(request: TAgentChatRequest): Language {
  return normalizeReportLanguage(
    request.language ?? request.context?.report_language ?? undefined,
    getSettings().REPORT_LANGUAGE,
  );
}

async function runTurn(request: TAgentChatRequest, ids: TurnIds, options: TurnOptions): Promise<TurnResult> {
  const emit = options.emit ?? (() => {});
  const language = languageOf(request);
  const session = await openSession(ids.sessionId, request.message, request.skills, request.context);
  const { skills, unknown } = await resolveSkills(session.skills);
  if (unknown.length > 0) log.info({ session_id: ids.sessionId, unknown }, "unknown strategy ids ignored");
  const question = await appendMessage({
    sessionId: ids.sessionId,
    role: "user",
    content: request.message,
    requestId: ids.requestId,
    skills: skills.map((s) => s.id),
  });
  emit({ type: "accepted", request_id: ids.requestId, session_id: ids.sessionId, backend: "dsa" });

  const recorder = new ToolRecorder(emit, language);
  const timeout = AbortSignal.timeout(getSettings().AGENT_TURN_TIMEOUT_SEC * 1000);
  const signal = AbortSignal.any([ids.controller.signal, timeout]);
  let outcome: Answer;
  if (isCommand(request.message)) {
    recorder.step = 1;
    emit({ type: "thinking", step: 1, message: language === "zh" ? "执行命令" : "Running the command" });
    const content = await runCommand(request.message, recorder, signal);
    outcome = { content, model: null, error: null, steps: 1 };
  } else if (chatModelChoices().length === 0) {
    outcome = { content: noLlmAnswer(language), model: null, error: null, steps: 0 };
  } else {
    const history = await recentMessages(ids.sessionId, question.id);
    outcome = await answerWithModel({
      request,
      language,
      skills,
      history,
      recorder,
      signal,
      emit,
      ids,
      modelFor: options.modelFor,
    });
  }

  const cancelled = signal.aborted;
  const cancelReason = timeout.aborted ? "timeout" : CANCELLED;
  let checks: TAnswerChecks | null = null;
  if (outcome.content.trim() !== "" && !outcome.error) {
    checks = checkAnswer(
      outcome.content,
      turnSources(recorder.outputs(), request.message, request.context),
      turnCodes(recorder.calls, request.message),
    );
    if (outcome.regenerated) checks.regenerated = true;
  }
  const success = !cancelled && outcome.error === null;
  const status = cancelled ? "cancelled" : outcome.error ? "error" : "complete";
  const error = cancelled ? cancelReason : (outcome.error?.code ?? null);
  const message = cancelled
    ? timeout.aborted
      ? `The answer took longer than AGENT_TURN_TIMEOUT_SEC (${getSettings().AGENT_TURN_TIMEOUT_SEC}s); the partial answer is kept`
      : "Cancelled; the partial answer is kept"
    : (outcome.error?.message ?? null);
  await appendMessage({
    sessionId: ids.sessionId,
    role: "assistant",
    content: outcome.content || (message ?? ""),
    status,
    requestId: ids.requestId,
    toolCalls: recorder.calls,
    checks,
    skills: skills.map((s) => s.id),
    model: outcome.model,
  });
  const result: TurnResult = {
    success,
    content: outcome.content,
    sessionId: ids.sessionId,
    requestId: ids.requestId,
    cancelled,
    error,
    message,
    checks,
    toolCalls: recorder.calls,
    totalSteps: outcome.steps,
    model: outcome.model,
  };
  emit({
    type: "done",
    success,
    content: outcome.content,
    session_id: ids.sessionId,
    request_id: ids.requestId,
    total_steps: outcome.steps,
    cancelled,
    error,
    message,
    checks,
    model: outcome.model,
  });
  return result;
}

interface Answer {
  content: string;
  model: string | null;
  error: { code: string; message: string } | null;
  steps: number;
  regenerated?: boolean;
}

interface ModelTurn {
  request: TAgentChatRequest;
  language: Language;
  skills: LoadedSkill[];
  history: { role: "user" | "assistant"; content: string }[];
  recorder: ToolRecorder;
  signal: AbortSignal;
  emit: (event: AgentStreamEvent) => void;
  ids: TurnIds;
  modelFor?: (choice: ChatModelChoice) => LanguageModel;
}

function usageTotals(usage: LanguageModelUsage | undefined) {
  const promptTokens = usage?.inputTokens ?? 0;
  const completionTokens = usage?.outputTokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: usage?.totalTokens ?? promptTokens + completionTokens };
}

function buildModel(choice: ChatModelChoice, modelFor?: (choice: ChatModelChoice) => LanguageModel): LanguageModel {
  if (modelFor) return modelFor(choice);
  const mode = choice.channel.protocol === "openai" ? "json_schema" : "json_object";
  return httpModelFactory(choice.channel, choice.model, mode, choice.channel.apiKey);
}

function overBudget(steps: readonly StepResult<ToolSet>[], budget: number): boolean {
  return steps.reduce((sum, s) => sum + (s.usage?.totalTokens ?? 0), 0) >= budget;
}

async function answerWithModel(turn: ModelTurn): Promise<Answer> {
  const { language, recorder, signal, emit, request } = turn;
  const settings = getSettings();
  const secrets = [...channelSecrets(llmChannels()), ...sensitiveSettingValues()];
  const system = buildSystemPrompt({ language, skills: turn.skills, context: request.context ?? null, today: now() });
  const messages: ModelMessage[] = [
    ...turn.history.map((m) => ({ role: m.role, content: m.content }) as ModelMessage),
    { role: "user", content: request.message },
  ];
  const tools = buildAgentTools(recorder, signal);
  const maxSteps = settings.AGENT_MAX_STEPS;
  let lastError: { code: string; message: string } | null = null;

  for (const choice of chatModelChoices()) {
    const started = performance.now();
    const model = buildModel(choice, turn.modelFor);
    const label = `${choice.channel.name}/${choice.model}`;
    let text = "";
    let stepText = "";
    let step = 0;
    let wrote = false;
    let generating = false;
    let streamError: unknown = null;
    let usage: LanguageModelUsage | undefined;
    try {
      const result = streamText({
        model,
        system,
        messages,
        tools,
        maxRetries: 0,
        abortSignal: signal,
        temperature: 0.2,
        // The SDK's default prints the whole error (the provider's body included) to the console; errors arrive
        // as stream parts and are logged here, scrubbed.
        onError: () => {},
        stopWhen: stepCountIs(maxSteps + 1),
        // The last allowed step, or a spent token budget: no more tools, the model must answer with what it has.
        prepareStep: ({ stepNumber, steps }) =>
          stepNumber >= maxSteps || overBudget(steps, settings.AGENT_TOKEN_BUDGET) ? { toolChoice: "none" } : undefined,
      });
      for await (const part of result.fullStream) {
        if (part.type === "start-step") {
          step += 1;
          recorder.step = step;
          stepText = "";
          emit({ type: "thinking", step, message: language === "zh" ? `第 ${step} 步` : `Step ${step}` });
        } else if (part.type === "text-delta") {
          if (!generating)
            emit({ type: "generating", message: language === "zh" ? "正在撰写回答" : "Writing the answer" });
          generating = true;
          wrote = true;
          stepText += part.text;
          if (request.stream_deltas) emit({ type: "delta", content: part.text });
        } else if (part.type === "tool-call") {
          wrote = true;
        } else if (part.type === "finish-step") {
          // Text written before a tool call is the model thinking aloud; the answer is the last step's text.
          if (stepText.trim() !== "") text = stepText;
        } else if (part.type === "finish") {
          usage = part.totalUsage;
        } else if (part.type === "error") {
          streamError = part.error;
        }
      }
    } catch (error) {
      streamError = error;
    }
    if (stepText.trim() !== "" && text !== stepText) text = stepText;
    const ms = Math.round(performance.now() - started);
    const failure =
      streamError && !signal.aborted
        ? classify(streamError, { timedOut: false, callerAborted: false, timeoutMs: 0 })
        : null;
    const reason = failure ? scrub(failure.reason, secrets) : null;
    await recordLlmUsage({
      callType: "agent",
      channel: choice.channel.name,
      model: choice.model,
      stockCode: request.context?.stock_code ?? null,
      queryId: turn.ids.requestId,
      ...usageTotals(usage),
      durationMs: ms,
      success: !failure,
      error: failure ? `${failure.code}: ${reason}` : null,
    });
    if (failure) {
      log.warn(
        { channel: choice.channel.name, model: choice.model, code: failure.code, reason },
        "agent model call failed",
      );
      lastError = { code: "model_error", message: `${label}: ${reason}` };
      if (!wrote && !signal.aborted) continue;
      return { content: text, model: label, error: lastError, steps: step };
    }
    if (signal.aborted) return { content: text, model: label, error: null, steps: step };

    // Key figures no tool returned → one rewrite with the tool data restated.
    const sources = turnSources(recorder.outputs(), request.message, request.context);
    const codes = turnCodes(recorder.calls, request.message);
    const checks = checkAnswer(text, sources, codes);
    if (!checks.key_unverified) return { content: text, model: label, error: null, steps: step };
    emit({
      type: "generating",
      message: language === "zh" ? "核对数字并重写回答" : "Checking the figures and rewriting",
    });
    const rewritten = await regenerate(turn, model, system, messages, text, checks.unverified, label, choice);
    return { content: rewritten ?? text, model: label, error: null, steps: step, regenerated: true };
  }
  return {
    content: "",
    model: null,
    error: lastError ?? { code: "model_error", message: "no model answered" },
    steps: 0,
  };
}

async function regenerate(
  turn: ModelTurn,
  model: LanguageModel,
  system: string,
  messages: ModelMessage[],
  draft: string,
  unverified: string[],
  label: string,
  choice: ChatModelChoice,
): Promise<string | null> {
  const started = performance.now();
  try {
    const result = await generateText({
      model,
      system,
      messages: [
        ...messages,
        { role: "assistant", content: draft },
        { role: "user", content: regenerationPrompt(turn.language, unverified, turn.recorder.outputs()) },
      ],
      maxRetries: 0,
      abortSignal: turn.signal,
      temperature: 0,
    });
    await recordLlmUsage({
      callType: "agent",
      channel: choice.channel.name,
      model: choice.model,
      stockCode: turn.request.context?.stock_code ?? null,
      queryId: turn.ids.requestId,
      ...usageTotals(result.usage),
      durationMs: Math.round(performance.now() - started),
      success: true,
    });
    return result.text.trim() === "" ? null : result.text;
  } catch (error) {
    log.warn(
      { model: label, err: error instanceof Error ? error.name : String(error) },
      "agent rewrite failed; the first answer is kept",
    );
    return null;
  }
}
