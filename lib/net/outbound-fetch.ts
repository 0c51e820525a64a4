import { guardedFetch } from "./outbound-connect";

/**
 * fetch for destinations a user configured (LLM base URLs), as the AI SDK calls it: the outbound policy
 * before the request and again on the address each socket connects to (outbound-connect.ts).
 */
export const outboundFetch: typeof fetch = async (input, init) => {
  if (input instanceof Request) {
    const { url, method, headers, body, signal } = input;
    return guardedFetch(url, {
      method,
      headers,
      body,
      signal,
      ...(body ? { duplex: "half" } : {}),
      ...init,
    } as RequestInit);
  }
  return guardedFetch(input, init);
};
