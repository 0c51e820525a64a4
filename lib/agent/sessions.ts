import type { AgentMessage, AgentSession } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { parseJsonObject } from "@/lib/history/serialize";
import type {
  TAgentContext,
  TAgentMessage,
  TAgentSessionDetail,
  TAgentSessionList,
  TAgentToolCall,
  TAnswerChecks,
} from "./schemas";
import { isUniqueViolation } from "@/lib/db/errors";

// Chat sessions and their messages. A session is keyed by the client's session_id; the first user
// message names it. Messages are appended one at a time, each in its own write, so a turn that dies halfway
// leaves the user's message and no half-written answer.

export const TITLE_CHARS = 60;
/** Messages of history handed to the model with a new question (older ones are left out, the newest kept). */
export const HISTORY_MESSAGES = 12;

function titleOf(message: string): string {
  const line = message.replace(/\s+/g, " ").trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

function parseArray<T>(text: string | null): T[] | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as T[]) : null;
  } catch {
    return null;
  }
}

export interface SessionState {
  id: string;
  skills: string[] | null;
  context: TAgentContext | null;
  created: boolean;
}

/**
 * The session a turn belongs to, created on its first message. `skills` null keeps the session's earlier choice;
 * a context given with a message replaces the stored one (the client re-sends it with every turn).
 */
export async function openSession(
  id: string,
  firstMessage: string,
  skills: string[] | null | undefined,
  context: TAgentContext | null | undefined,
): Promise<SessionState> {
  const at = now();
  const existing = await db().agentSession.findUnique({ where: { id } });
  if (!existing) {
    try {
      await db().agentSession.create({
        data: {
          id,
          title: titleOf(firstMessage),
          skills: jsonOrNull(skills),
          context: jsonOrNull(context),
          createdAt: at,
          lastActive: at,
        },
      });
      return { id, skills: skills ?? null, context: context ?? null, created: true };
    } catch (error) {
      // Two first turns of one new session at once: the other request created it; fall through to update it.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  const row = existing ?? (await db().agentSession.findUniqueOrThrow({ where: { id } }));
  const data: { lastActive: Date; skills?: string | null; context?: string | null } = { lastActive: at };
  if (skills !== undefined && skills !== null) data.skills = jsonOrNull(skills);
  if (context) data.context = jsonOrNull(context);
  await db().agentSession.update({ where: { id }, data });
  return {
    id,
    skills: skills ?? parseArray<string>(row.skills),
    context: context ?? (parseJsonObject(row.context) as TAgentContext | null),
    created: false,
  };
}

export interface NewMessage {
  sessionId: string;
  role: "user" | "assistant";
  content: string;
  status?: "complete" | "cancelled" | "error";
  requestId?: string | null;
  toolCalls?: TAgentToolCall[] | null;
  checks?: TAnswerChecks | null;
  skills?: string[] | null;
  model?: string | null;
}

export async function appendMessage(message: NewMessage): Promise<AgentMessage> {
  const at = now();
  const [row] = await db().$transaction([
    db().agentMessage.create({
      data: {
        sessionId: message.sessionId,
        role: message.role,
        content: message.content,
        status: message.status ?? "complete",
        requestId: message.requestId ?? null,
        toolCalls: jsonOrNull(message.toolCalls),
        checks: jsonOrNull(message.checks),
        skills: jsonOrNull(message.skills),
        model: message.model ?? null,
        createdAt: at,
      },
    }),
    db().agentSession.updateMany({ where: { id: message.sessionId }, data: { lastActive: at } }),
  ]);
  return row;
}

/** The conversation so far for the model: the last HISTORY_MESSAGES complete or cancelled messages, oldest first. */
export async function recentMessages(
  sessionId: string,
  beforeId?: number,
): Promise<{ role: "user" | "assistant"; content: string }[]> {
  const rows = await db().agentMessage.findMany({
    where: { sessionId, status: { not: "error" }, ...(beforeId !== undefined ? { id: { lt: beforeId } } : {}) },
    orderBy: { id: "desc" },
    take: HISTORY_MESSAGES,
    select: { role: true, content: true },
  });
  return rows.reverse().map((r) => ({ role: r.role === "assistant" ? "assistant" : "user", content: r.content }));
}

export function toAgentMessage(row: AgentMessage): TAgentMessage {
  return {
    id: row.id,
    role: row.role === "assistant" ? "assistant" : "user",
    content: row.content,
    created_at: row.createdAt.toISOString(),
    status: row.status === "cancelled" || row.status === "error" ? row.status : "complete",
    request_id: row.requestId,
    tool_calls: parseArray<TAgentToolCall>(row.toolCalls),
    checks: parseJsonObject(row.checks) as TAnswerChecks | null,
    skills: parseArray<string>(row.skills),
    model: row.model,
  };
}

// GET /api/v1/agent/chat/sessions – newest activity first
export async function listSessions(limit: number): Promise<TAgentSessionList> {
  const rows = await db().agentSession.findMany({
    orderBy: [{ lastActive: "desc" }, { id: "asc" }],
    take: limit,
    include: { _count: { select: { messages: true } } },
  });
  return {
    sessions: rows.map((row) => ({
      session_id: row.id,
      title: row.title,
      message_count: row._count.messages,
      created_at: row.createdAt.toISOString(),
      last_active: row.lastActive.toISOString(),
    })),
  };
}

async function getSessionOrThrow(id: string): Promise<AgentSession> {
  const row = await db().agentSession.findUnique({ where: { id } });
  if (!row) throw notFound(`No chat session ${id}`);
  return row;
}

// GET /api/v1/agent/chat/sessions/{id} – the last `limit` messages, oldest first
export async function getSessionDetail(id: string, limit: number): Promise<TAgentSessionDetail> {
  const session = await getSessionOrThrow(id);
  const rows = await db().agentMessage.findMany({ where: { sessionId: id }, orderBy: { id: "desc" }, take: limit });
  return {
    session_id: session.id,
    title: session.title,
    messages: rows.reverse().map(toAgentMessage),
    session_state: { selected_skill_ids: parseArray<string>(session.skills) },
    context: parseJsonObject(session.context) as TAgentContext | null,
  };
}

// DELETE /api/v1/agent/chat/sessions/{id} – the session and its messages, in one transaction
export async function deleteSession(id: string): Promise<{ deleted: number }> {
  await getSessionOrThrow(id);
  const [, sessions] = await db().$transaction([
    db().agentMessage.deleteMany({ where: { sessionId: id } }),
    db().agentSession.deleteMany({ where: { id } }),
  ]);
  return { deleted: sessions.count };
}
