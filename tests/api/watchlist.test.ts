import fs from "node:fs";
import path from "node:path";
import writeXlsxFile from "write-excel-file/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCRIPTED_MODEL_ID, startScriptedModel, type ScriptedModel } from "@/tests/kits/scripted-model";
import { startTestServer, type TestServer } from "../setup/api-server";
import { loginCookie, referenceClient, type Call, type Wire } from "./compat/reference-client";

// docs/api.md §12.7: the watchlist API over STOCK_LIST and its import from a file, pasted text or a
// screenshot, in both auth modes, as the reference's web client sends them. The screenshot goes to a local
// OpenAI-compatible stub (scripted model) once a channel is saved through the config API.

const FIXTURES = path.resolve("tests/fixtures/watchlist");
const KEY = "sk-watchlist-image-key-0123456789";
// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(() => model?.close());

function suite(mode: "auth off" | "auth on") {
  describe(`12.7 watchlist with ${mode}`, () => {
    let server: TestServer;
    let call: Call;
    let cookie: string | undefined;

    beforeAll(async () => {
      server = await startTestServer({
        MARKET_DATA_SOURCES: "sample",
        OUTBOUND_ALLOW_PRIVATE: "true",
        ...(mode === "auth on" ? { ADMIN_AUTH_ENABLED: "true" } : {}),
      });
      cookie = mode === "auth on" ? await loginCookie(server.baseUrl) : undefined;
      call = referenceClient(server.baseUrl, cookie);
    });
    afterAll(() => server?.stop());

    /** multipart/form-data as the client's FormData upload sends it. */
    async function upload(
      pathname: string,
      file: { bytes: Uint8Array | string; name: string; type?: string } | null,
      fields: Record<string, string> = {},
    ) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      if (file)
        form.set(
          "file",
          new File([typeof file.bytes === "string" ? file.bytes : new Uint8Array(file.bytes)], file.name, {
            type: file.type ?? "",
          }),
        );
      const res = await fetch(`${server.baseUrl}${pathname}`, {
        method: "POST",
        body: form,
        headers: { origin: server.baseUrl, ...(cookie ? { cookie } : {}) },
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as Wire };
    }

    async function configValue(key: string): Promise<string> {
      const res = await call("GET", "/api/v1/system/config?include_schema=false");
      expect(res.status).toBe(200);
      return res.body.items.find((i: { key: string }) => i.key === key)?.value ?? "";
    }

    async function saveConfig(items: { key: string; value: string }[]) {
      const current = await call("GET", "/api/v1/system/config?include_schema=false");
      const res = await call("PUT", "/api/v1/system/config", { config_version: current.body.config_version, items });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    if (mode === "auth on") {
      it("without the session every endpoint answers 401", async () => {
        const anon = referenceClient(server.baseUrl);
        for (const [method, pathname, body] of [
          ["GET", "/api/v1/stocks/watchlist", undefined],
          ["POST", "/api/v1/stocks/watchlist/add", { stock_code: "600519" }],
          ["POST", "/api/v1/stocks/watchlist/remove", { stock_code: "600519" }],
          ["POST", "/api/v1/stocks/parse-import", { text: "600519" }],
          ["POST", "/api/v1/stocks/extract-from-image", undefined],
        ] as const) {
          const res = await anon(method, pathname, body);
          expect(res.status, pathname).toBe(401);
          expect(res.body.error).toBe("unauthorized");
        }
      });
    }

    it("GET /stocks/watchlist: {stock_codes: []} on a fresh install", async () => {
      const res = await call("GET", "/api/v1/stocks/watchlist");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ stock_codes: [] });
    });

    it("add: codes and names resolve, the display code is stored once, and the config API shows the same STOCK_LIST", async () => {
      expect((await call("POST", "/api/v1/stocks/watchlist/add", { stock_code: "sh600519" })).body).toEqual({
        stock_codes: ["600519"],
      });
      expect((await call("POST", "/api/v1/stocks/watchlist/add", { stock_code: "贵州茅台" })).body).toEqual({
        stock_codes: ["600519"],
      });
      expect((await call("POST", "/api/v1/stocks/watchlist/add", { stock_code: "腾讯" })).body).toEqual({
        stock_codes: ["600519", "00700"],
      });
      const added = await call("POST", "/api/v1/stocks/watchlist/add", { stock_code: "AAPL" });
      expect(added.status).toBe(200);
      expect(added.body).toEqual({ stock_codes: ["600519", "00700", "AAPL"] });
      expect(await configValue("STOCK_LIST")).toBe("600519,00700,AAPL");
      expect((await call("GET", "/api/v1/stocks/watchlist")).body).toEqual({
        stock_codes: ["600519", "00700", "AAPL"],
      });
      // The scheduler reads the same list.
      const scheduler = await call("GET", "/api/v1/system/scheduler/status");
      expect(scheduler.body.stock_list).toEqual(["600519", "00700", "AAPL"]);
    });

    it("add of something that does not resolve: 400 invalid_stock_code with a message; the list is unchanged", async () => {
      for (const stock_code of ["XYZ123", "不存在的公司", ""]) {
        const res = await call("POST", "/api/v1/stocks/watchlist/add", { stock_code });
        expect(res.status, stock_code).toBe(400);
        expect(res.body).toMatchObject({ error: "invalid_stock_code" });
        expect(res.body.message).toBeTruthy();
      }
      expect((await call("GET", "/api/v1/stocks/watchlist")).body.stock_codes).toEqual(["600519", "00700", "AAPL"]);
    });

    it("remove matches any spelling of the same stock, and the config API shows the result", async () => {
      expect((await call("POST", "/api/v1/stocks/watchlist/remove", { stock_code: "600519.SH" })).body).toEqual({
        stock_codes: ["00700", "AAPL"],
      });
      expect((await call("POST", "/api/v1/stocks/watchlist/remove", { stock_code: "0700.HK" })).body).toEqual({
        stock_codes: ["AAPL"],
      });
      expect((await call("POST", "/api/v1/stocks/watchlist/remove", { stock_code: "MSFT" })).body).toEqual({
        stock_codes: ["AAPL"],
      });
      expect(await configValue("STOCK_LIST")).toBe("AAPL");
    });

    it("10 parallel adds over HTTP: no entry is lost", async () => {
      const codes = ["600519", "000001", "600036", "300750", "00700", "09988", "MSFT", "NVDA", "TSLA", "000858"];
      const answers = await Promise.all(
        codes.map((stock_code) => call("POST", "/api/v1/stocks/watchlist/add", { stock_code })),
      );
      expect(answers.map((a) => a.status)).toEqual(codes.map(() => 200));
      const list = (await call("GET", "/api/v1/stocks/watchlist")).body.stock_codes as string[];
      expect([...list].sort()).toEqual(["AAPL", ...codes].sort());
      expect((await configValue("STOCK_LIST")).split(",").sort()).toEqual(["AAPL", ...codes].sort());
      // Back to one entry for the import tests below.
      for (const stock_code of codes) await call("POST", "/api/v1/stocks/watchlist/remove", { stock_code });
      expect((await call("GET", "/api/v1/stocks/watchlist")).body.stock_codes).toEqual(["AAPL"]);
    });

    it("parse-import JSON {text}: codes and items with confidence; rejects with reasons; nothing saved", async () => {
      const res = await call("POST", "/api/v1/stocks/parse-import", {
        text: "600519, 贵州茅台\n腾讯控股、XYZ123 | Apple\nhello",
      });
      expect(res.status).toBe(200);
      expect(res.body.codes).toEqual(["600519", "00700", "AAPL"]);
      for (const item of res.body.items) expect(["high", "medium", "low"]).toContain(item.confidence);
      expect(res.body.items.find((i: Wire) => i.raw === "XYZ123")).toMatchObject({ confidence: "low" });
      expect(res.body.items.find((i: Wire) => i.raw === "XYZ123").reason).toBeTruthy();
      expect(res.body.items.find((i: Wire) => i.raw === "hello")).toMatchObject({ code: "HELLO", confidence: "low" });
      expect((await call("GET", "/api/v1/stocks/watchlist")).body.stock_codes).toEqual(["AAPL"]);
    });

    it("parse-import errors: invalid_json, bad_request, 413 for a file too large, 415 for another content type", async () => {
      const raw = await fetch(`${server.baseUrl}/api/v1/stocks/parse-import`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.baseUrl, ...(cookie ? { cookie } : {}) },
        body: '{"text": "600519"',
      });
      expect(raw.status).toBe(400);
      expect(await raw.json()).toMatchObject({ error: "invalid_json" });
      const empty = await call("POST", "/api/v1/stocks/parse-import", {});
      expect(empty.status).toBe(400);
      expect(empty.body.error).toBe("bad_request");
      expect((await upload("/api/v1/stocks/parse-import", null, { note: "no file" })).body.error).toBe("bad_request");
      const big = await upload("/api/v1/stocks/parse-import", {
        bytes: "600519\n".repeat(320_000),
        name: "big.csv",
        type: "text/csv",
      });
      expect(big.status).toBe(413);
      const plain = await fetch(`${server.baseUrl}/api/v1/stocks/parse-import`, {
        method: "POST",
        headers: { "content-type": "text/plain", origin: server.baseUrl, ...(cookie ? { cookie } : {}) },
        body: "600519",
      });
      expect(plain.status).toBe(415);
      const xls = await upload("/api/v1/stocks/parse-import", {
        bytes: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]),
        name: "old.xls",
      });
      expect(xls.status).toBe(400);
      expect(xls.body.error).toBe("parse_failed");
    });

    it("parse-import multipart file: a broker CSV (UTF-8), a GBK export, a TXT and an XLSX", async () => {
      const utf8 = await upload("/api/v1/stocks/parse-import", {
        bytes: fs.readFileSync(path.join(FIXTURES, "broker-utf8.csv")),
        name: "broker.csv",
        type: "text/csv",
      });
      expect(utf8.status).toBe(200);
      expect(utf8.body.codes).toEqual(["600519", "000001", "000858"]);
      const gbk = await upload("/api/v1/stocks/parse-import", {
        bytes: fs.readFileSync(path.join(FIXTURES, "holdings-gbk.csv")),
        name: "holdings.csv",
        type: "text/csv",
      });
      expect(gbk.status).toBe(200);
      expect(gbk.body.codes).toEqual(["000001", "600036", "300750"]);
      const txt = await upload("/api/v1/stocks/parse-import", {
        bytes: fs.readFileSync(path.join(FIXTURES, "codes.txt")),
        name: "codes.txt",
        type: "text/plain",
      });
      expect(txt.body.codes).toEqual(["600519", "600036", "00700", "AAPL", "MSFT", "NVDA", "002594", "TSLA"]);
      const xlsx = await writeXlsxFile([
        [{ value: "代码" }, { value: "名称" }],
        [{ value: 600519 }, { value: "贵州茅台" }],
        [{ value: "AAPL" }, { value: "苹果" }],
      ]).toBuffer();
      const sheet = await upload("/api/v1/stocks/parse-import", {
        bytes: new Uint8Array(xlsx),
        name: "list.xlsx",
        type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      });
      expect(sheet.status).toBe(200);
      expect(sheet.body.codes).toEqual(["600519", "AAPL"]);
      expect((await call("GET", "/api/v1/stocks/watchlist")).body.stock_codes).toEqual(["AAPL"]);
    });

    it("extract-from-image without an LLM channel: 400 extract_failed saying plainly that no vision model is configured, the model never asked", async () => {
      const before = model.requests.length;
      const res = await upload("/api/v1/stocks/extract-from-image", {
        bytes: PNG,
        name: "shot.png",
        type: "image/png",
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("extract_failed");
      expect(res.body.message).toMatch(/^No vision-capable model is configured/);
      expect(res.body.message).not.toMatch(/OPENAI|LLM_CHANNELS|API key/i);
      expect(res.body.reason_code).toBe("no_vision_channel");
      expect(model.requests.length).toBe(before);
    });

    it("extract-from-image input errors: bad_request without a file, unsupported_type, 413 past the size limit", async () => {
      expect((await upload("/api/v1/stocks/extract-from-image", null, { note: "x" })).body.error).toBe("bad_request");
      const text = await upload("/api/v1/stocks/extract-from-image", {
        bytes: "600519",
        name: "codes.png",
        type: "image/png",
      });
      expect(text.status).toBe(400);
      expect(text.body.error).toBe("unsupported_type");
      const huge = await upload("/api/v1/stocks/extract-from-image", {
        bytes: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]),
        name: "huge.png",
        type: "image/png",
      });
      expect(huge.status).toBe(413);
    });

    it("extract-from-image with a channel: the image goes to the model, what it read is resolved, invented codes stay out", async () => {
      await saveConfig([
        { key: "OPENAI_API_KEY", value: KEY },
        { key: "OPENAI_BASE_URL", value: model.url },
        { key: "OPENAI_MODEL", value: SCRIPTED_MODEL_ID },
      ]);
      model.reset();
      const answer = {
        stocks: [
          { code: "600519", name: "贵州茅台" },
          { code: null, name: "腾讯控股" },
          { code: "XYZ123", name: null },
          { code: "999999", name: "幻觉公司" },
        ],
      };
      model.queue({ text: JSON.stringify(answer) });
      const res = await upload("/api/v1/stocks/extract-from-image?include_raw=true", {
        bytes: PNG,
        name: "shot.png",
        type: "image/png",
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.codes).toEqual(["600519", "00700"]);
      expect(res.body.items.find((i: Wire) => i.raw === "XYZ123")).toMatchObject({ confidence: "low" });
      expect(res.body.items.find((i: Wire) => i.code === "999999")).toMatchObject({ confidence: "low" });
      expect(res.body.raw_text).toBe(JSON.stringify(answer));
      const completion = model.requests.find((r) => r.path.endsWith("/chat/completions"));
      expect(JSON.stringify(completion?.body.messages)).toContain("data:image/png;base64,");
      expect(completion?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect((await call("GET", "/api/v1/stocks/watchlist")).body.stock_codes).toEqual(["AAPL"]);
    });

    it("extract-from-image when the model fails: 400 extract_failed with a reason that holds no key", async () => {
      model.reset();
      model.queue({ status: 500, errorMessage: `upstream failed for ${KEY}` });
      const res = await upload("/api/v1/stocks/extract-from-image", {
        bytes: PNG,
        name: "shot.png",
        type: "image/png",
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("extract_failed");
      expect(JSON.stringify(res.body)).not.toContain(KEY);
      // Put the list back to empty for a rerun of the file on the same server (none: each suite starts its own).
      await call("POST", "/api/v1/stocks/watchlist/remove", { stock_code: "AAPL" });
    });
  });
}

suite("auth off");
suite("auth on");
