import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { db, disconnectDb } from "@/lib/db/client";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";
import { smtpServer } from "./channels/email";
import { notify } from "./notify";
import type { NotificationMessage } from "./types";

// Email over SMTP (nodemailer) into a local SMTP sink started here: login, envelope, headers and both parts.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-notify-email-"));
const file = path.join(dir, "test.db");
let databaseUrl = "";
const PASSWORD = "smtp-pass-0987";

interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}
const received: Received[] = [];
let sink: SMTPServer;
let port = 0;

const message: NotificationMessage = {
  kind: "report",
  title: "600519 Kweichow Moutai · buy · 72",
  body: "- **Action**: buy · Score 72\n- **Price**: 1500.5 (+1.20%)\n- **Summary**: 趋势向上，回踩买入",
  link: { url: "http://dsa.local/history/42?tab=summary", label: "Open the full report" },
  related: { kind: "analysis", id: "q42" },
};

function configure(extra: Record<string, string>): void {
  setEnvironmentForTests({
    ENV_FILE: path.join(dir, "missing.env"),
    DATABASE_URL: databaseUrl,
    EMAIL_SENDER: "dsa@example.com",
    OUTBOUND_ALLOW_PRIVATE: "true",
    EMAIL_SMTP_HOST: "127.0.0.1",
    EMAIL_SMTP_PORT: String(port),
    NOTIFICATION_RETRY_BASE_DELAY_MS: "5",
    ...extra,
  });
}

// Quoted-printable (RFC 2045) back to text: soft line breaks removed, =XX bytes decoded as UTF-8.
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === "=" && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The Subject header, unfolded, with RFC 2047 encoded words (Q or B) decoded. */
function subjectOf(raw: string): string {
  const match = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw);
  expect(match).not.toBeNull();
  // Whitespace between two encoded words is not part of the text (RFC 2047 §6.2).
  const unfolded = match![1]!.replace(/\?=\r\n[ \t]+=\?/g, "?==?").replace(/\r\n[ \t]+/g, " ");
  return unfolded.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
    encoding.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : decodeQuotedPrintable(text.replace(/_/g, " ")),
  );
}

/** The decoded body of the MIME part with this content type. */
function part(raw: string, contentType: string): string {
  const start = raw.indexOf(`Content-Type: ${contentType}`);
  expect(start, contentType).toBeGreaterThanOrEqual(0);
  const headerEnd = raw.indexOf("\r\n\r\n", start);
  const headers = raw.slice(start, headerEnd);
  const end = raw.indexOf("\r\n--", headerEnd);
  const body = raw.slice(headerEnd + 4, end);
  if (/quoted-printable/i.test(headers)) return decodeQuotedPrintable(body);
  if (/base64/i.test(headers)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl(file);
  sink = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "dsa@example.com" && auth.password === PASSWORD)
        return callback(null, { user: auth.username });
      // A server that echoes the client's AUTH line (some do, in their 535 reply).
      if (auth.password?.startsWith("echo-")) {
        const blob = Buffer.from(`\0${auth.username}\0${auth.password}`).toString("base64");
        return callback(new Error(`Authentication failed for AUTH PLAIN ${blob} (or ${blob})`));
      }
      return callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  port = (sink.server.address() as AddressInfo).port;
  configure({});
});
beforeEach(async () => {
  received.length = 0;
  await db().notificationDelivery.deleteMany();
});
afterAll(async () => {
  await new Promise<void>((resolve) => sink.close(() => resolve()));
  await disconnectDb();
  setEnvironmentForTests(process.env);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("email channel", () => {
  it("logs in as the sender and delivers subject, plain text and HTML with the report link to every receiver", async () => {
    configure({ EMAIL_PASSWORD: PASSWORD, EMAIL_RECEIVERS: "a@example.com, b@example.com" });
    const result = await notify(message);
    expect(result).toEqual({
      status: "sent",
      deliveries: [{ channel: "email", status: "sent", attempts: 1, error: null }],
    });
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.user).toBe("dsa@example.com");
    expect(mail!.from).toBe("dsa@example.com");
    expect(mail!.to).toEqual(["a@example.com", "b@example.com"]);
    expect(subjectOf(mail!.raw)).toBe("600519 Kweichow Moutai · buy · 72");
    expect(mail!.raw).toMatch(/^From: dsa@example\.com$/m);
    expect(mail!.raw).toMatch(/^To: a@example\.com, b@example\.com$/m);
    expect(part(mail!.raw, "text/plain")).toBe(
      "- Action: buy · Score 72\n- Price: 1500.5 (+1.20%)\n- Summary: 趋势向上，回踩买入\n\nOpen the full report: http://dsa.local/history/42?tab=summary".replace(
        /\n/g,
        "\r\n",
      ),
    );
    const html = part(mail!.raw, "text/html");
    expect(html).toContain("<li><strong>Summary</strong>: 趋势向上，回踩买入</li>");
    expect(html).toContain('<a href="http://dsa.local/history/42?tab=summary">Open the full report</a>');
  });

  it("an SMTP server on this machine is refused by default, before any connection", async () => {
    configure({ EMAIL_PASSWORD: PASSWORD, OUTBOUND_ALLOW_PRIVATE: "false", NOTIFICATION_RETRY_ATTEMPTS: "2" });
    const before = received.length;
    const result = await notify({ ...message, related: { kind: "analysis", id: "smtp-ssrf" } });
    expect(result.deliveries[0]).toMatchObject({
      channel: "email",
      status: "failed",
      attempts: 1,
      error: expect.stringMatching(/^destination refused: 127\.0\.0\.1 .*OUTBOUND_ALLOW_PRIVATE/),
    });
    expect(received).toHaveLength(before);
  });

  it("the subject is the title (MIME-encoded when not ASCII)", async () => {
    configure({ EMAIL_PASSWORD: PASSWORD });
    await notify({ ...message, title: "Plain ASCII subject" });
    expect(received[0]!.raw).toMatch(/^Subject: Plain ASCII subject$/m);
    expect(received[0]!.to).toEqual(["dsa@example.com"]);
  });

  it("a refused login fails once (not retried) and the reason holds no password", async () => {
    configure({ EMAIL_PASSWORD: "wrong-password-123", NOTIFICATION_RETRY_ATTEMPTS: "3" });
    const result = await notify(message);
    expect(result.deliveries[0]).toMatchObject({ channel: "email", status: "failed", attempts: 1 });
    expect(result.deliveries[0]!.error).toMatch(/^smtp EAUTH: /);
    expect(result.deliveries[0]!.error).not.toContain("wrong-password-123");
    expect(received).toHaveLength(0);
    const row = await db().notificationDelivery.findFirstOrThrow();
    expect(row).toMatchObject({ channel: "email", status: "failed", attempts: 1 });
  });

  it("an SMTP reply that echoes the base64 AUTH line is stored without it", async () => {
    const password = "echo-secret-password-7";
    const blob = Buffer.from(`\0dsa@example.com\0${password}`).toString("base64");
    configure({ EMAIL_PASSWORD: password });
    const result = await notify(message);
    const error = result.deliveries[0]!.error!;
    expect(error).toMatch(/^smtp EAUTH: .*Authentication failed for AUTH PLAIN \*\*\*/);
    expect(error).not.toContain(blob);
    const row = await db().notificationDelivery.findFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(blob);
    expect(JSON.stringify(row)).not.toContain(password);
  });

  it("sender without password or host: email is off", async () => {
    setEnvironmentForTests({
      ENV_FILE: path.join(dir, "missing.env"),
      DATABASE_URL: databaseUrl,
      EMAIL_SENDER: "dsa@example.com",
    });
    expect((await notify(message)).status).toBe("no_channels");
  });

  it("derives the SMTP server from the sender's domain when no host is set", () => {
    expect(smtpServer({ sender: "me@qq.com", host: "", port: 0 })).toEqual({ host: "smtp.qq.com", port: 465 });
    expect(smtpServer({ sender: "me@outlook.com", host: "", port: 0 })).toEqual({
      host: "smtp-mail.outlook.com",
      port: 587,
    });
    expect(smtpServer({ sender: "me@corp.cn", host: "mail.corp.cn", port: 25 })).toEqual({
      host: "mail.corp.cn",
      port: 25,
    });
  });
});
