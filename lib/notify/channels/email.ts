import { getSettings } from "@/lib/settings/settings";
import { pinnedAddress } from "@/lib/net/outbound-connect";
import { hostRefusal, OutboundRefusedError } from "@/lib/net/outbound-policy";
import { DeliveryError } from "../http";
import { escapeHtml, fitMessage, markdownToHtml, markdownToPlain, utf16Units } from "../text";
import type { NotificationMessage } from "../types";
import { markdownParts, type ChannelTarget } from "./target";

/** Mail has no hard limit; a report mail is kept readable. */
export const EMAIL_MAX_CHARS = 100_000;
const SUBJECT_MAX = 200;

export interface EmailSettings {
  sender: string;
  password: string;
  receivers: string[];
  host: string;
  /** 0: derived with the host. */
  port: number;
}

// Providers whose SMTP host is not smtp.<domain> or whose port is not 465.
const KNOWN_SERVERS: Record<string, { host: string; port: number }> = {
  "outlook.com": { host: "smtp-mail.outlook.com", port: 587 },
  "hotmail.com": { host: "smtp-mail.outlook.com", port: 587 },
  "live.com": { host: "smtp-mail.outlook.com", port: 587 },
  "foxmail.com": { host: "smtp.qq.com", port: 465 },
};

/** Host and port: the settings when given, else derived from the sender's domain (smtp.<domain>:465). */
export function smtpServer(settings: Pick<EmailSettings, "sender" | "host" | "port">): { host: string; port: number } {
  const domain = settings.sender.split("@")[1]?.toLowerCase() ?? "";
  const known = KNOWN_SERVERS[domain];
  const host = settings.host !== "" ? settings.host : (known?.host ?? `smtp.${domain}`);
  const port = settings.port !== 0 ? settings.port : settings.host !== "" ? 465 : (known?.port ?? 465);
  return { host, port };
}

export function emailContent(message: NotificationMessage) {
  const parts = markdownParts(message, "none");
  const markdown = fitMessage(parts, EMAIL_MAX_CHARS, utf16Units);
  const link = message.link
    ? `<p><a href="${escapeHtml(message.link.url)}">${escapeHtml(message.link.label)}</a></p>`
    : "";
  const body = markdownToHtml(fitMessage({ ...parts, tail: "" }, EMAIL_MAX_CHARS, utf16Units));
  return {
    subject: message.title.replace(/[\r\n]+/g, " ").slice(0, SUBJECT_MAX),
    text: markdownToPlain(markdown),
    html: `<!doctype html><html><body><h2>${escapeHtml(message.title)}</h2>\n${body}\n${link}</body></html>`,
  };
}

export function emailTarget(settings: EmailSettings): ChannelTarget {
  return {
    id: "email",
    channel: "email",
    secrets: [settings.password],
    async send(message, context) {
      const { createTransport } = await import("nodemailer");
      const { host, port } = smtpServer(settings);
      const refused = await hostRefusal(host, getSettings().OUTBOUND_ALLOW_PRIVATE);
      if (refused) throw new DeliveryError(`destination refused: ${refused}`, false);
      // nodemailer resolves names itself: it gets the address that passed the check (a second lookup could
      // answer differently: DNS rebinding), and the name stays the TLS server name for the certificate.
      let address: string;
      try {
        address = await pinnedAddress(host);
      } catch (error) {
        if (error instanceof OutboundRefusedError)
          throw new DeliveryError(
            `destination refused: ${error.message.replace(/^Outbound request refused: /, "")}`,
            false,
          );
        throw new DeliveryError(`smtp EDNS: ${(error as NodeJS.ErrnoException).code ?? "lookup failed"}`, true);
      }
      const transport = createTransport({
        host: address,
        servername: address === host.replace(/^\[|\]$/g, "") ? undefined : host,
        port,
        secure: port === 465,
        auth: settings.password !== "" ? { user: settings.sender, pass: settings.password } : undefined,
        connectionTimeout: context.timeoutMs,
        greetingTimeout: context.timeoutMs,
        socketTimeout: context.timeoutMs,
      });
      try {
        await transport.sendMail({
          from: settings.sender,
          to: settings.receivers.length > 0 ? settings.receivers : [settings.sender],
          ...emailContent(message),
        });
      } catch (error) {
        throw smtpError(error);
      } finally {
        transport.close();
      }
    },
  };
}

// Connection trouble and 4xx SMTP replies are transient; authentication and 5xx replies are not.
function smtpError(error: unknown): DeliveryError {
  const err = error as { code?: string; responseCode?: number; message?: string };
  const code = err?.code ?? "ERROR";
  const transient =
    ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS"].includes(code) ||
    (err?.responseCode !== undefined && err.responseCode >= 400 && err.responseCode < 500);
  return new DeliveryError(`smtp ${code}: ${err?.message ?? String(error)}`.slice(0, 300), transient);
}
