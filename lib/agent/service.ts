import type { TAgentChatRequest, TAgentChatResponse } from "./schemas";
import { loadSkills } from "./skills";
import { prepareTurn } from "./turn";

// The agent operations the route handlers call (besides the stream, sessions, status and send).

// POST /api/v1/agent/chat – the same turn as the stream, answered when it is done
export async function chatOnce(request: TAgentChatRequest, signal?: AbortSignal): Promise<TAgentChatResponse> {
  const turn = prepareTurn(request, { signal });
  const result = await turn.run();
  return {
    success: result.success,
    content: result.content,
    session_id: result.sessionId,
    error: result.error === null ? null : (result.message ?? result.error),
    request_id: result.requestId,
    checks: result.checks,
    tool_calls: result.toolCalls,
  };
}

// GET /api/v1/agent/skills – the reference's shape plus tools, source and the files that could not be read
export async function listAgentSkills() {
  const catalog = await loadSkills();
  return {
    skills: catalog.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      name_en: s.nameEn,
      description_en: s.descriptionEn,
      tools: s.tools,
      source: s.source,
    })),
    default_skill_id: catalog.defaultSkillId,
    problems: catalog.problems,
  };
}

// GET /api/v1/agent/strategies – the same under the legacy names
export async function listAgentStrategies() {
  const { skills, default_skill_id, problems } = await listAgentSkills();
  return { strategies: skills, default_strategy_id: default_skill_id, problems };
}
