import { jsonResponse } from "./reply";
import { readTextBody } from "./request-body";

// A platform's webhook (the chat bots): the domain gets the exact body text, since the platform's signature covers
// its bytes, and answers in the platform's own shape (a JSON object, a challenge, a plain-text echo).

const MAX_WEBHOOK_BYTES = 256 * 1024;

export interface WebhookInput {
  headers: Headers;
  query: URLSearchParams;
  body: string;
}

export type WebhookAnswer = { kind: "json"; body: unknown } | { kind: "text"; body: string };

export function webhookHandler(receive: (input: WebhookInput) => WebhookAnswer | Promise<WebhookAnswer>) {
  return async ({ req }: { req: Request }): Promise<Response> => {
    const body = req.method === "GET" ? "" : await readTextBody(req, MAX_WEBHOOK_BYTES);
    const answer = await receive({ headers: req.headers, query: new URL(req.url).searchParams, body });
    return answer.kind === "json"
      ? jsonResponse(200, answer.body)
      : new Response(answer.body, { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } });
  };
}
