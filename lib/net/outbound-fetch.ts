import { getSettings } from "@/lib/config/settings";
import { assertOutboundAllowed } from "./outbound-policy";

/** fetch for destinations a user configured (LLM and news base URLs): the outbound policy first. */
export const outboundFetch: typeof fetch = async (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  await assertOutboundAllowed(url, getSettings().OUTBOUND_ALLOW_PRIVATE);
  return fetch(input, init);
};
