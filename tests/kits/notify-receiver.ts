import http from "node:http";
import type { AddressInfo } from "node:net";

// Test support: a local HTTP receiver standing in for a webhook service (127.0.0.1, a free port).

export interface ReceivedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body's bytes (a binary body, such as an encrypted push, is not text). */
  raw: Buffer;
  json: unknown;
  at: number;
}

export interface Answer {
  status?: number;
  body?: unknown;
  /** Milliseconds to wait before answering (timeouts). */
  delayMs?: number;
}

export interface Receiver {
  baseUrl: string;
  requests: ReceivedRequest[];
  /** How to answer the n-th request (0-based); default 200 with the default body. */
  answer: (request: ReceivedRequest, index: number) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(defaultBody: unknown = { ok: true }): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const receiver = { requests, answer: (): Answer => ({ status: 200, body: defaultBody }) } as unknown as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString("utf8");
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
      const request: ReceivedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        text,
        raw,
        json,
        at: Date.now(),
      };
      requests.push(request);
      const answer = receiver.answer(request, requests.length - 1);
      const reply = () => {
        if (res.destroyed) return;
        const body = answer.body ?? defaultBody;
        res.writeHead(answer.status ?? 200, {
          "content-type": typeof body === "string" ? "text/plain" : "application/json",
        });
        res.end(typeof body === "string" ? body : JSON.stringify(body));
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
