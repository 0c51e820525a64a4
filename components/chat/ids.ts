// Client-made ids for a chat: the session (kept across turns) and each turn's request_id, which lets the
// cancel call name a turn before its first event arrives. crypto.randomUUID needs a secure context, and a
// self-hosted service is often opened over plain http on a LAN address, so fall back to getRandomValues.

export function newUuid(): string {
  if (typeof crypto.randomUUID === "function" && globalThis.isSecureContext) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
