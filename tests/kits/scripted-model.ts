import http from "node:http";
import type { AddressInfo } from "node:net";

// Test support: a scripted OpenAI-compatible chat-completions server (127.0.0.1, a free port) that the
// AI SDK's openai and openai-compatible providers talk to over real HTTP. Used by Vitest API tests and by
// Playwright specs, so it depends on node:http only (no "server-only", no Next).

export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
  /** Defaults to a fresh `call_<n>`, unique for the life of the server. */
  id?: string;
}

export interface ScriptedReply {
  /** The assistant asks for these tools (finish_reason "tool_calls"). */
  toolCalls?: ScriptedToolCall[];
  /** The assistant's text (finish_reason "stop"); streamed in several chunks when the request has stream:true. */
  text?: string;
  /** Delay between streamed chunks (a slow reply a test cancels); a non-streaming reply waits this long once. */
  chunkDelayMs?: number;
  /** Answer with this HTTP error status and an OpenAI-style error JSON instead. */
  status?: number;
  /** The error message sent with `status` (default "scripted error <status>"). */
  errorMessage?: string;
  /** Start streaming, send part of the text, then destroy the socket. */
  errorMidStream?: boolean;
  /** Default: an estimate of about four characters a token, so tests can rely on non-zero numbers. */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface ScriptedRequest {
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- whatever the client sent
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** All message contents joined, tool results included. */
  messagesText: string;
}

export interface ScriptedModel {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  /** Every request received, in order (GET /models too: filter on `path` to count completions). */
  requests: ScriptedRequest[];
  /** Replies handed out one per chat-completion request, in order; when the queue is empty `fallback` answers. */
  queue(...replies: ScriptedReply[]): void;
  /** Answers when the queue is empty (default: a plain text "ok"); may inspect the request. */
  fallback: (req: ScriptedRequest) => ScriptedReply;
  /** Replies still being written (a test can wait for 0 after aborting a slow reply). */
  readonly inFlight: number;
  /** Clear queue, requests, restore default fallback. */
  reset(): void;
  close(): Promise<void>;
}

export const SCRIPTED_MODEL_ID = "scripted-model";

const defaultFallback = (): ScriptedReply => ({ text: "ok" });

/** Counters shared by one server: ids stay unique across reset(). */
interface Ids {
  call: number;
  completion: number;
}

export async function startScriptedModel(): Promise<ScriptedModel> {
  const requests: ScriptedRequest[] = [];
  const pending: ScriptedReply[] = [];
  const ids: Ids = { call: 0, completion: 0 };
  const active = new Set<Reply>();

  const model = {
    requests,
    fallback: defaultFallback,
    queue(...replies: ScriptedReply[]) {
      pending.push(...replies);
    },
    get inFlight() {
      return active.size;
    },
    reset() {
      pending.length = 0;
      requests.length = 0;
      model.fallback = defaultFallback;
    },
  } as unknown as ScriptedModel;

  const nextReply = (request: ScriptedRequest): ScriptedReply => {
    const queued = pending.shift();
    if (queued) return queued;
    try {
      return model.fallback(request);
    } catch (error) {
      return {
        status: 500,
        errorMessage: `scripted fallback threw: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  };

  const server = http.createServer((req, res) => {
    req.on("error", () => {});
    res.on("error", () => {});
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      let badJson = false;
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          badJson = true;
        }
      }
      const request: ScriptedRequest = { body, path, headers: { ...req.headers }, messagesText: messagesText(body) };
      requests.push(request);

      const route = path.replace(/^\/v1(?=\/)/, "").replace(/\/+$/, "");
      if (req.method === "GET" && route === "/models") {
        sendJson(res, 200, {
          object: "list",
          data: [{ id: SCRIPTED_MODEL_ID, object: "model", created: 0, owned_by: "dsa-tests" }],
        });
        return;
      }
      if (route !== "/chat/completions") {
        sendError(res, 404, `no route for ${req.method} ${path}`);
        return;
      }
      if (req.method !== "POST") {
        sendError(res, 405, `method ${req.method} not allowed`);
        return;
      }
      if (badJson || !body || typeof body !== "object") {
        sendError(res, 400, "request body is not a JSON object");
        return;
      }
      const reply = new Reply(res, request, nextReply(request), ids, active);
      void reply.run();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  model.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  model.close = () =>
    new Promise<void>((resolve) => {
      for (const reply of active) reply.cancel();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return model;
}

// ---- one reply

/** Writes one scripted reply; stops writing (and clears its timer) as soon as the connection closes. */
class Reply {
  private cancelled = false;
  private sentEvents = 0;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly res: http.ServerResponse,
    private readonly request: ScriptedRequest,
    private readonly reply: ScriptedReply,
    private readonly ids: Ids,
    private readonly active: Set<Reply>,
  ) {
    active.add(this);
    // "close" comes both after a normal end and when the client aborts: either way nothing more to write.
    res.on("close", () => this.cancel());
  }

  cancel(): void {
    this.cancelled = true;
    this.active.delete(this);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.wake?.();
    this.wake = undefined;
  }

  async run(): Promise<void> {
    try {
      await this.write();
    } catch (error) {
      // Usually the client went away while we wrote; otherwise tell the client rather than hang.
      if (!this.res.headersSent && !this.cancelled) sendError(this.res, 500, `scripted model failed: ${String(error)}`);
    } finally {
      if (!this.res.writableEnded && !this.cancelled && !this.res.destroyed) this.res.end();
      this.cancel();
    }
  }

  private async write(): Promise<void> {
    const { reply, request } = this;
    if (reply.status && reply.status >= 400) {
      if (reply.chunkDelayMs) await this.sleep(reply.chunkDelayMs);
      if (!this.cancelled) sendError(this.res, reply.status, reply.errorMessage ?? `scripted error ${reply.status}`);
      return;
    }
    const toolCalls = (reply.toolCalls ?? []).map((call) => ({
      id: call.id ?? `call_${++this.ids.call}`,
      name: call.name,
      arguments: JSON.stringify(call.args ?? {}),
    }));
    const meta = {
      id: `chatcmpl-scripted-${++this.ids.completion}`,
      created: Math.floor(Date.now() / 1000),
      model: typeof request.body?.model === "string" ? request.body.model : SCRIPTED_MODEL_ID,
      system_fingerprint: "fp_scripted",
    };
    const finishReason = toolCalls.length > 0 ? "tool_calls" : "stop";
    const text = reply.text ?? (toolCalls.length > 0 ? undefined : "");
    const usage = usageOf(reply, request, text, toolCalls);

    if (request.body?.stream === true) {
      await this.stream(meta, text, toolCalls, finishReason, usage);
      return;
    }
    if (reply.chunkDelayMs) await this.sleep(reply.chunkDelayMs);
    if (this.cancelled) return;
    const completion = {
      ...meta,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: text ?? null,
            refusal: null,
            ...(toolCalls.length > 0
              ? {
                  tool_calls: toolCalls.map((c) => ({
                    id: c.id,
                    type: "function",
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }
              : {}),
          },
          logprobs: null,
          finish_reason: finishReason,
        },
      ],
      usage,
    };
    if (reply.errorMidStream) {
      const json = JSON.stringify(completion);
      this.res.writeHead(200, { "content-type": "application/json" });
      await this.send(json.slice(0, Math.floor(json.length / 2)));
      this.res.destroy();
      return;
    }
    sendJson(this.res, 200, completion);
  }

  private async stream(
    meta: Record<string, unknown>,
    text: string | undefined,
    toolCalls: { id: string; name: string; arguments: string }[],
    finishReason: string,
    usage: Usage,
  ): Promise<void> {
    const { reply, res } = this;
    const includeUsage = this.request.body?.stream_options?.include_usage === true;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      ...meta,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    });

    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.flushHeaders();

    // As OpenAI: content "" opens a text reply, null a reply that only calls tools.
    const events: unknown[] = [chunk({ role: "assistant", content: text === undefined ? null : "", refusal: null })];
    const pieces = text ? splitText(text) : [];
    const textEvents = pieces.map((piece) => chunk({ content: piece }));
    if (reply.errorMidStream) {
      const sent = [...events, ...textEvents.slice(0, Math.max(1, Math.floor(textEvents.length / 2)))];
      for (const event of sent) {
        if (!(await this.event(event))) return;
      }
      res.destroy();
      return;
    }
    events.push(...textEvents);
    toolCalls.forEach((call, index) => {
      events.push(
        chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
      );
      for (const part of splitArguments(call.arguments))
        events.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
    });
    events.push(chunk({}, finishReason));
    if (includeUsage) events.push({ ...meta, object: "chat.completion.chunk", choices: [], usage });

    for (const event of events) {
      if (!(await this.event(event))) return;
    }
    if (!(await this.send("data: [DONE]\n\n"))) return;
    res.end();
  }

  /** Sends one SSE event, after the reply's delay when it is not the first; false once the client has gone. */
  private async event(event: unknown): Promise<boolean> {
    if (this.sentEvents++ > 0 && this.reply.chunkDelayMs) await this.sleep(this.reply.chunkDelayMs);
    return this.send(`data: ${JSON.stringify(event)}\n\n`);
  }

  private send(data: string): Promise<boolean> {
    if (this.cancelled || this.res.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => {
      // A write to a socket the client just closed may never call back: cancel() resolves it instead.
      this.wake = () => resolve(false);
      this.res.write(data, (error) => {
        this.wake = undefined;
        resolve(!error && !this.cancelled);
      });
    });
  }

  private sleep(ms: number): Promise<void> {
    if (this.cancelled) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.wake = undefined;
        resolve();
      }, ms);
    });
  }
}

// ---- helpers

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

function usageOf(
  reply: ScriptedReply,
  request: ScriptedRequest,
  text: string | undefined,
  toolCalls: { name: string; arguments: string }[],
): Usage {
  const estimate = (chars: number) => Math.max(1, Math.ceil(chars / 4));
  const prompt = reply.usage?.prompt_tokens ?? estimate(request.messagesText.length);
  const completion =
    reply.usage?.completion_tokens ??
    estimate((text ?? "").length + toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** All message contents joined, tool results included (strings or text parts; other parts are skipped). */
function messagesText(body: unknown): string {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return "";
  const texts: string[] = [];
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (typeof content === "string") {
      texts.push(content);
      continue;
    }
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      const partText = (part as { text?: unknown } | null)?.text;
      if (typeof partText === "string") texts.push(partText);
    }
  }
  return texts.join("\n");
}

/** Word by word (whitespace kept), long runs (CJK has no spaces) cut every 16 characters. */
function splitText(text: string): string[] {
  const pieces: string[] = [];
  for (const word of text.match(/\s*\S+\s*|\s+/g) ?? [text]) {
    const chars = Array.from(word);
    for (let i = 0; i < chars.length; i += 16) pieces.push(chars.slice(i, i + 16).join(""));
  }
  return pieces;
}

/** OpenAI streams arguments in fragments; two halves exercise the client's joining. */
function splitArguments(args: string): string[] {
  if (args.length < 2) return [args];
  const middle = Math.floor(args.length / 2);
  return [args.slice(0, middle), args.slice(middle)];
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function sendError(res: http.ServerResponse, status: number, message: string): void {
  const type =
    status === 401
      ? "authentication_error"
      : status === 429
        ? "rate_limit_error"
        : status < 500
          ? "invalid_request_error"
          : "server_error";
  const code = status === 401 ? "invalid_api_key" : status === 429 ? "rate_limit_exceeded" : null;
  sendJson(res, status, { error: { message, type, param: null, code } });
}
