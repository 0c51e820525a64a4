import { randomUUID } from "node:crypto";

// Ids handed to clients are opaque; one generator keeps their format uniform (32 lowercase hex digits).
export function newId(): string {
  return randomUUID().replace(/-/g, "");
}

export const newTraceId = newId;

// A caller may pass its own trace id to follow one request across systems; anything odd is replaced.
const CLIENT_TRACE_ID = /^[A-Za-z0-9._:-]{8,64}$/;

export function acceptTraceId(candidate: string | null | undefined): string {
  return candidate && CLIENT_TRACE_ID.test(candidate) ? candidate : newTraceId();
}
