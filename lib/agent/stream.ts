import { getSettings } from "@/lib/settings/settings";
import { logger } from "@/lib/log/logger";
import type { AgentStreamEvent, TAgentChatRequest } from "./schemas";
import { prepareTurn, type TurnOptions } from "./turn";

// POST /api/v1/agent/chat/stream (docs/api.md §12.8): each event one `data: <json>` line and a blank line, no
// `event:` line (the reference client reads the type from the JSON); `: heartbeat` comments while the model or a
// tool is quiet, so proxies keep the connection. The stream ends after `done` (or `error`).

export const AGENT_SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
} as const;

export function encodeAgentEvent(event: AgentStreamEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** Registers the turn first (a running request_id is a 409 before any byte is sent), then streams it. */
export function openChatStream(
  request: TAgentChatRequest,
  options: Pick<TurnOptions, "signal" | "modelFor"> & { heartbeatMs?: number } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const heartbeatMs = options.heartbeatMs ?? getSettings().SSE_HEARTBEAT_SECONDS * 1000;
  let closed = false;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  const write = (text: string) => {
    if (closed || !controllerRef) return;
    try {
      controllerRef.enqueue(encoder.encode(text));
    } catch {
      closed = true;
    }
    arm();
  };
  const arm = () => {
    if (heartbeat) clearTimeout(heartbeat);
    if (!closed) heartbeat = setTimeout(() => write(": heartbeat\n\n"), heartbeatMs);
  };
  const close = () => {
    if (heartbeat) clearTimeout(heartbeat);
    if (closed) return;
    closed = true;
    try {
      controllerRef?.close();
    } catch {
      // the consumer already went away
    }
  };

  const turn = prepareTurn(request, {
    signal: options.signal,
    modelFor: options.modelFor,
    emit: (event) => write(encodeAgentEvent(event)),
  });
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controllerRef = controller;
      arm();
      void turn
        .run()
        .catch((error: unknown) => {
          logger.error({ component: "agent", err: error, request_id: turn.requestId }, "agent turn failed");
          write(
            encodeAgentEvent({
              type: "error",
              error: "internal_error",
              message: "The answer could not be completed",
              request_id: turn.requestId,
            }),
          );
        })
        .finally(close);
    },
    cancel() {
      // The client closed the stream: the request's signal aborts the turn; stop writing now.
      if (heartbeat) clearTimeout(heartbeat);
      closed = true;
    },
  });
}
