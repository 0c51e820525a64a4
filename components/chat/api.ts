import type { z } from "zod";
import { requestJson } from "@/components/ui/request";
import type {
  TAgentSessionDetail,
  TAgentSessionList,
  ZAgentSendResponse,
  ZAgentSkillList,
  ZAgentStatus,
} from "@/lib/agent/schemas";

// The chat page's calls to /api/v1/agent (docs/api.md §12.8 plus our fields). The stream itself is read in
// use-chat-turn.ts; everything else is plain JSON through the shared request helper.

export type AgentStatus = z.infer<typeof ZAgentStatus>;
export type AgentSkillList = z.infer<typeof ZAgentSkillList>;
export type AgentSendResponse = z.infer<typeof ZAgentSendResponse>;
export type AgentSessionItem = TAgentSessionList["sessions"][number];

const BASE = "/api/v1/agent";
export const STREAM_URL = `${BASE}/chat/stream`;
export const SESSION_LIST_LIMIT = 50;

export const cancelUrl = (requestId: string) => `${BASE}/chat/stream/${encodeURIComponent(requestId)}/cancel`;

export function listSessions(): Promise<TAgentSessionList> {
  return requestJson("GET", `${BASE}/chat/sessions?limit=${SESSION_LIST_LIMIT}`);
}

export function getSession(id: string): Promise<TAgentSessionDetail> {
  return requestJson("GET", `${BASE}/chat/sessions/${encodeURIComponent(id)}`);
}

export function deleteSession(id: string): Promise<{ deleted: number }> {
  return requestJson("DELETE", `${BASE}/chat/sessions/${encodeURIComponent(id)}`);
}

export function listSkills(): Promise<AgentSkillList> {
  return requestJson("GET", `${BASE}/skills`);
}

export function agentStatus(): Promise<AgentStatus> {
  return requestJson("GET", `${BASE}/status`);
}

export function cancelTurn(requestId: string): Promise<{ accepted: boolean; request_id: string }> {
  return requestJson("POST", cancelUrl(requestId));
}

export function sendToChannels(content: string, title: string): Promise<AgentSendResponse> {
  return requestJson("POST", `${BASE}/chat/send`, { content, title });
}
