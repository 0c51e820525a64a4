import { ApiError } from "@/lib/errors/api-error";

// Turns running in this process, by request_id, so POST /agent/chat/stream/{request_id}/cancel can stop the model
// and its tools at once. A globalThis singleton: Next's dev reloads must not lose a running turn's handle.
// Per process, like the stream it belongs to (the client cancels on the replica that serves its stream).

interface ActiveTurn {
  controller: AbortController;
}

const KEY = Symbol.for("dsa.agent.activeTurns");
type Holder = { [KEY]?: Map<string, ActiveTurn> };

function turns(): Map<string, ActiveTurn> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/** Registers a turn; 409 request_conflict when one with this id is still running. Returns its unregister. */
export function registerTurn(requestId: string, controller: AbortController): () => void {
  const map = turns();
  if (map.has(requestId)) throw ApiError.of("request_conflict", "This agent request is already running");
  const entry = { controller };
  map.set(requestId, entry);
  return () => {
    if (map.get(requestId) === entry) map.delete(requestId);
  };
}

export const CANCELLED = "cancelled";

// POST /api/v1/agent/chat/stream/{request_id}/cancel – the stream still ends with `done` (cancelled, partial answer)
export function cancelTurn(requestId: string): { accepted: true; request_id: string } {
  const entry = turns().get(requestId);
  if (!entry) throw ApiError.of("request_not_active", "This agent request is no longer running");
  entry.controller.abort(CANCELLED);
  return { accepted: true, request_id: requestId };
}
