import { ChatWorkbench } from "@/components/chat/chat-workbench";
import type { ChatContext } from "@/components/chat/model";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { getDisplayTimeZone, getI18n } from "@/lib/i18n/locale";
import { firstParam, type SearchParams } from "@/lib/http/page-query";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("chat");

// Same bounds as the API's id and context fields (lib/agent/schemas.ts); anything else in the URL is ignored.
const SESSION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

function readContext(params: SearchParams): ChatContext | null {
  const record = firstParam(params.record);
  const recordId = record && /^\d{1,15}$/.test(record) && Number(record) > 0 ? Number(record) : null;
  const code = firstParam(params.code)?.slice(0, 32) ?? null;
  const name = firstParam(params.name)?.slice(0, 64) ?? null;
  if (!code && recordId === null) return null;
  return { stock_code: code, stock_name: name, record_id: recordId };
}

// The Ask DSA chat. Everything on it talks to /api/v1/agent from the browser (the answer streams), so
// the server part is the frame: title, strings, the display time zone, and what the URL asks for: a conversation
// to reopen (?session=) or a stock to ask about (?record=&code=&name=, from a report's "Ask DSA" link).
export default async function ChatPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const [{ locale, t }, params, { zone }] = await Promise.all([getI18n(), searchParams, getDisplayTimeZone()]);
  const session = firstParam(params.session);
  const sessionId = session && SESSION_ID.test(session) ? session : null;
  const context = sessionId ? null : readContext(params);
  // A new URL (another report's link, or the nav item) starts over; the conversation state lives in the client.
  const key =
    sessionId ??
    (context ? `${context.record_id ?? ""}|${context.stock_code ?? ""}|${context.stock_name ?? ""}` : "new");
  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.chat.title}</h1>
      <p className="mt-1 text-sm text-muted">{t.chatUi.intro}</p>
      <div className="mt-4">
        <ChatWorkbench
          key={key}
          t={t.chatUi}
          locale={locale}
          timeZone={zone}
          initialSessionId={sessionId}
          initialContext={context}
        />
      </div>
    </div>
  );
}
