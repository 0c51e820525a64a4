import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation } from "@/lib/operation/operation";
import { ApiError } from "@/lib/errors/api-error";
import { MAX_JSON_BODY_BYTES, MAX_JSON_DEPTH } from "./request-body";
import { JsonBody } from "@/lib/operation/json-body";
import { reply } from "./reply";
import { route } from "./route";

const ZBody = z.object({ name: z.string().min(1), count: z.number().int().default(1) });
const ZQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  tags: z.array(z.string()).optional(),
});
const ZParams = z.object({ id: z.coerce.number().int() });

const op = defineOperation({
  method: "POST",
  path: "/things/{id}",
  operationId: "createThing",
  summary: "test operation",
  tags: ["Test"],
  params: ZParams,
  query: ZQuery,
  body: ZBody,
  responses: { 201: { description: "created" } },
});

const handler = route(op, ({ params, query, body, traceId }) => ({
  id: params.id,
  limit: query.limit,
  tags: query.tags,
  body,
  traceId,
}));
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

function post(url: string, body: BodyInit | null, headers: Record<string, string> = {}) {
  return new Request(`http://test${url}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
}

describe("route wrapper", () => {
  it("parses path, query and body with the operation's schemas and answers the success status", async () => {
    const res = await handler(post("/things/7?limit=5&tags=a&tags=b", JSON.stringify({ name: "x" })), ctx({ id: "7" }));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ id: 7, limit: 5, tags: ["a", "b"], body: { name: "x", count: 1 } });
    expect(res.headers.get("x-trace-id")).toBe(body.traceId);
  });

  it("a schema failure in the query is 422 validation_error with loc and input", async () => {
    const res = await handler(post("/things/7?limit=0", JSON.stringify({ name: "x" })), ctx({ id: "7" }));
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error).toBe("validation_error");
    expect(body.detail[0]).toMatchObject({ loc: ["query", "limit"], type: "too_small", input: "0" });
  });

  it("a schema failure in the path is 422 with loc path", async () => {
    const res = await handler(post("/things/abc", JSON.stringify({ name: "x" })), ctx({ id: "abc" }));
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0].loc).toEqual(["path", "id"]);
  });

  it("a schema failure in the body is 422 and never echoes the body's values", async () => {
    const res = await handler(post("/things/1", JSON.stringify({ name: "", count: 1.5 })), ctx({ id: "1" }));
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ["body", "name"],
      ["body", "count"],
    ]);
    expect(body.detail.every((d: object) => !("input" in d))).toBe(true);
  });

  it("a NUL character anywhere in path, query or body is 422 before any handler (PostgreSQL text cannot hold it)", async () => {
    const inPath = await handler(post("/things/%00", JSON.stringify({ name: "x" })), ctx({ id: "\u0000" }));
    expect(inPath.status).toBe(422);
    expect((await inPath.json()).detail[0]).toMatchObject({
      loc: ["path", "id"],
      msg: "NUL characters (U+0000) are not accepted",
    });
    const inQuery = await handler(post("/things/1?tags=a%00", JSON.stringify({ name: "x" })), ctx({ id: "1" }));
    expect((await inQuery.json()).detail[0].loc).toEqual(["query", "tags"]);
    const inBody = await handler(post("/things/1", JSON.stringify({ name: "a\u0000b" })), ctx({ id: "1" }));
    expect(inBody.status).toBe(422);
    expect((await inBody.json()).detail[0].loc).toEqual(["body", "name"]);
  });

  it("malformed JSON is 400 invalid_request", async () => {
    const res = await handler(post("/things/1", "{not json"), ctx({ id: "1" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  it("a missing required body is 400 invalid_request", async () => {
    const res = await handler(post("/things/1", null), ctx({ id: "1" }));
    expect(res.status).toBe(400);
  });

  it("a body over 1 MiB is 413, by Content-Length or by streamed size", async () => {
    const big = JSON.stringify({ name: "x".repeat(MAX_JSON_BODY_BYTES) });
    const declared = await handler(post("/things/1", big), ctx({ id: "1" }));
    expect(declared.status).toBe(413);
    expect((await declared.json()).error).toBe("payload_too_large");

    const chunk = new Uint8Array(256 * 1024).fill(32);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const streamed = await handler(
      new Request("http://test/things/1", { method: "POST", body: stream, duplex: "half" } as RequestInit),
      ctx({ id: "1" }),
    );
    expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(8);
  });

  it("an ApiError becomes the flat envelope with its extra keys", async () => {
    const failing = route({ ...op, params: undefined, query: undefined, body: undefined }, () => {
      throw ApiError.of("duplicate_task", "already analysing", { stock_code: "600519", existing_task_id: "t1" });
    });
    const res = await failing(new Request("http://test/x", { method: "POST" }), ctx({}));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: "duplicate_task",
      message: "already analysing",
      stock_code: "600519",
      existing_task_id: "t1",
    });
  });

  it("anything unexpected is 500 internal_error without a stack or the error text", async () => {
    const failing = route({ ...op, params: undefined, query: undefined, body: undefined }, () => {
      throw new Error("SQLITE_ERROR near SELECT secret_key_123");
    });
    const res = await failing(new Request("http://test/x", { method: "POST" }), ctx({}));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: "internal_error", message: "Internal server error", detail: null });
    expect(text).not.toContain("secret_key_123");
  });

  it("a handler's thenable (a Prisma query is one) is waited for; every kind of answer carries the trace id", async () => {
    const bare = { ...op, params: undefined, query: undefined, body: undefined };
    const fromQuery = route(bare, () => ({ then: (resolve: (v: unknown) => void) => resolve({ rows: 3 }) }));
    const res = await fromQuery(
      new Request("http://test/x", { method: "POST", headers: { "x-trace-id": "trace-thenable-1" } }),
      ctx({}),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ rows: 3 });
    expect(res.headers.get("x-trace-id")).toBe("trace-thenable-1");
    const answers = [
      route(bare, () => reply(202, { ok: true }, { "Retry-After": "3" })),
      route(bare, () => new Response("<p>page</p>", { headers: { "content-type": "text/html" } })),
      route(bare, () => new JsonBody({ kept: true })),
      route(bare, () => {
        throw ApiError.of("not_found", "gone");
      }),
    ];
    for (const answer of answers) {
      const got = await answer(
        new Request("http://test/x", { method: "POST", headers: { "x-trace-id": "trace-kinds-22" } }),
        ctx({}),
      );
      expect(got.headers.get("x-trace-id")).toBe("trace-kinds-22");
    }
  });

  it("a handler chooses its status with reply(), including an empty 204", async () => {
    const accepted = route({ ...op, params: undefined, query: undefined, body: undefined }, () =>
      reply(202, { ok: true }),
    );
    expect((await accepted(new Request("http://test/x", { method: "POST" }), ctx({}))).status).toBe(202);
    const empty = route({ ...op, params: undefined, query: undefined, body: undefined }, () => reply(204));
    const res = await empty(new Request("http://test/x", { method: "POST" }), ctx({}));
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
  });

  it("a kept JsonBody is sent as its encoded JSON with the success status, the same bytes every time; text outside ASCII survives", async () => {
    const kept = new JsonBody({ name: "贵州茅台 – “quoted” 🐂", items: [1, 2] });
    const send = route({ ...op, params: undefined, query: undefined, body: undefined }, () => kept);
    for (let i = 0; i < 2; i++) {
      const res = await send(new Request("http://test/x", { method: "POST" }), ctx({}));
      expect(res.status).toBe(201);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("x-trace-id")).toBeTruthy();
      expect(await res.json()).toEqual(kept.value);
    }
    expect(kept.bytes()).toBe(kept.bytes());
  });

  it("a lone UTF-16 surrogate anywhere in a JSON body is 422 at the parse layer (values and keys)", async () => {
    for (const raw of ['{"name":"acc\\ud800"}', '{"name":"ok","tags":["\\udc00x"]}', '{"name":"ok","\\ud83d":1}']) {
      const res = await handler(post("/things/1", raw), ctx({ id: "1" }));
      expect(res.status, raw).toBe(422);
      const body = await res.json();
      expect(body).toMatchObject({ error: "validation_error" });
      expect(body.detail[0].loc[0]).toBe("body");
    }
    const pair = await handler(post("/things/1", '{"name":"\\ud83d\\ude00"}'), ctx({ id: "1" }));
    expect(pair.status).toBe(201);
  });

  it("fuzz: a body nested past MAX_JSON_DEPTH is 422 too_deep, not a stack overflow (500), at any depth", async () => {
    for (const depth of [MAX_JSON_DEPTH + 1, 5_000, 100_000]) {
      for (const raw of [
        `{"name":"x","tags":${"[".repeat(depth)}${"]".repeat(depth)}}`,
        `{"name":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`,
      ]) {
        const res = await handler(post("/things/1", raw), ctx({ id: "1" }));
        expect(res.status, `depth ${depth}`).toBe(422);
        expect(await res.json()).toMatchObject({
          error: "validation_error",
          detail: [{ type: "too_deep", loc: expect.arrayContaining(["body"]) }],
        });
      }
    }
    const shallow = await handler(
      post("/things/1", `{"name":"x","extra":${"[".repeat(MAX_JSON_DEPTH - 2)}${"]".repeat(MAX_JSON_DEPTH - 2)}}`),
      ctx({ id: "1" }),
    );
    expect(shallow.status).toBe(201);
  });

  it("a JSON body sent as text/plain (a no-preflight cross-site form) or without a type is 415 with the envelope", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", ""]) {
      const req = new Request("http://test/things/1", {
        method: "POST",
        body: JSON.stringify({ name: "x" }),
        headers: type ? { "content-type": type } : {},
      });
      if (!type) req.headers.delete("content-type");
      const res = await handler(req, ctx({ id: "1" }));
      expect(res.status, type).toBe(415);
      expect(await res.json()).toMatchObject({ error: "unsupported_media_type" });
    }
    const charset = await handler(
      post("/things/1", JSON.stringify({ name: "x" }), { "content-type": "application/json; charset=utf-8" }),
      ctx({ id: "1" }),
    );
    expect(charset.status).toBe(201);
  });
});

describe("route wrapper: a body sent as JSON or as multipart/form-data (docs/api.md §12.7 parse-import)", () => {
  const either = route(
    defineOperation({
      method: "POST",
      path: "/either",
      operationId: "either",
      summary: "test operation",
      tags: ["Test"],
      body: z.object({ text: z.string().optional(), file: z.file().optional() }),
      bodyFormat: "json-or-multipart",
      bodyRequired: false,
      invalidJsonCode: "invalid_json",
      responses: { 200: { description: "ok" } },
    }),
    async ({ body }) => ({ text: body?.text ?? null, file: body?.file ? await body.file.text() : null }),
  );

  it("reads JSON by default and multipart when the Content-Type says so", async () => {
    expect(await (await either(post("/either", JSON.stringify({ text: "600519" })), ctx({}))).json()).toEqual({
      text: "600519",
      file: null,
    });
    const form = new FormData();
    form.set("file", new File(["600519,AAPL"], "list.csv"));
    const res = await either(new Request("http://test/either", { method: "POST", body: form }), ctx({}));
    expect(await res.json()).toEqual({ text: null, file: "600519,AAPL" });
  });

  it("a JSON body that does not parse answers the operation's own code; another content type is 415", async () => {
    const bad = await either(post("/either", '{"text": '), ctx({}));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("invalid_json");
    const plain = await either(post("/either", "600519", { "content-type": "text/plain" }), ctx({}));
    expect(plain.status).toBe(415);
  });
});
