import { lookup } from "node:dns/promises";
import net from "node:net";

// Where the service may send requests a user configured (notification webhooks, LLM base URLs, news
// APIs): never to this machine, its network or the cloud metadata service unless OUTBOUND_ALLOW_PRIVATE
// says so, or a settings change becomes a way to reach internal services (SSRF).

const PRIVATE_V4 = new net.BlockList();
for (const [net4, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  PRIVATE_V4.addSubnet(net4, prefix, "ipv4");
}
const PRIVATE_V6 = new net.BlockList();
for (const [net6, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  // IPv4-compatible (deprecated: `[::127.0.0.1]` parses to ::7f00:1) and Teredo, whose inner address a relay decides.
  ["::", 96],
  ["2001::", 32],
] as const) {
  PRIVATE_V6.addSubnet(net6, prefix, "ipv6");
}

// Names that reach metadata services or this machine whatever DNS says.
const BLOCKED_NAMES = [/^localhost$/, /\.localhost$/, /^metadata\.google\.internal$/, /^metadata$/, /\.internal$/];

/** True for loopback, link-local (cloud metadata), private, shared, multicast and reserved addresses. */
export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) return PRIVATE_V4.check(address, "ipv4");
  if (!net.isIPv6(address)) return true;
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (mapped) {
    const v4 =
      mapped[1] ?? [mapped[2]!, mapped[3]!].flatMap((h) => [parseInt(h, 16) >> 8, parseInt(h, 16) & 255]).join(".");
    return PRIVATE_V4.check(v4, "ipv4");
  }
  // 6to4 (2002:V4HI:V4LO::/48) carries an IPv4 address a relay on the way delivers to: `[2002:7f00:1::]` is 127.0.0.1.
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/i.exec(expandV6(address));
  if (sixToFour) {
    const v4 = [sixToFour[1]!, sixToFour[2]!].flatMap((h) => [parseInt(h, 16) >> 8, parseInt(h, 16) & 255]).join(".");
    if (PRIVATE_V4.check(v4, "ipv4")) return true;
  }
  return PRIVATE_V6.check(address, "ipv6");
}

// The first groups of an IPv6 address written out, so `2002:7f00:1::` and `2002:7f00:0001:0::` read alike.
function expandV6(address: string): string {
  const [head = "", tail] = address.split("::");
  const groups = head === "" ? [] : head.split(":");
  if (tail === undefined) return groups.join(":");
  const rest = tail === "" ? [] : tail.split(":");
  return [...groups, ...Array<string>(Math.max(0, 8 - groups.length - rest.length)).fill("0"), ...rest].join(":");
}

// A host as the resolver reads it: brackets gone, lower case, the root's trailing dot dropped (`localhost.` is
// localhost).
function bareHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
}

function hostOf(url: URL): string {
  return bareHost(url.hostname);
}

const HINT = "set OUTBOUND_ALLOW_PRIVATE=true to allow destinations on this machine or its network";

/**
 * Why this URL may not be called, from its text alone (scheme, a literal address in any numeric form the
 * URL parser normalises, blocked names), or null. Used by config validation, which must not wait on DNS.
 */
export function literalOutboundRefusal(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `scheme ${url.protocol} is not allowed (only http and https)`;
  if (allowPrivate) return null;
  return literalHostRefusal(hostOf(url), allowPrivate);
}

/** The check of a destination named by host alone (an SMTP server), from its text: no DNS. */
export function literalHostRefusal(rawHost: string, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  const host = bareHost(rawHost);
  if (net.isIP(host))
    return isPrivateAddress(host) ? `${host} is a loopback, link-local or private address; ${HINT}` : null;
  if (BLOCKED_NAMES.some((name) => name.test(host))) return `${host} names this machine or a metadata service; ${HINT}`;
  return null;
}

export type Resolver = (host: string) => Promise<{ address: string }[]>;
const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** The same check after resolving the name: every address it resolves to must be public. */
export async function outboundRefusal(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<string | null> {
  const literal = literalOutboundRefusal(raw, allowPrivate);
  if (literal || allowPrivate) return literal;
  return hostRefusal(hostOf(new URL(raw)), allowPrivate, resolve);
}

/** For a destination named by host alone (an SMTP server): the address and name checks, after DNS. */
export async function hostRefusal(
  rawHost: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<string | null> {
  if (allowPrivate) return null;
  const literal = literalHostRefusal(rawHost, allowPrivate);
  if (literal) return literal;
  const host = bareHost(rawHost);
  if (net.isIP(host)) return null;
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host);
  } catch {
    return `${host} cannot be resolved`;
  }
  const inside = addresses.find((a) => isPrivateAddress(a.address));
  return inside ? privateAddressRefusal(host, inside.address) : null;
}

/** The reason for a name that resolves to a private address (at the check, or at the connect). */
export function privateAddressRefusal(host: string, address: string): string {
  return `${host} resolves to ${address}, a loopback, link-local or private address; ${HINT}`;
}

export class OutboundRefusedError extends Error {
  override name = "OutboundRefusedError";
}

/** Throws OutboundRefusedError with the reason when the URL may not be called. */
export async function assertOutboundAllowed(raw: string, allowPrivate: boolean): Promise<void> {
  const reason = await outboundRefusal(raw, allowPrivate);
  if (reason) throw new OutboundRefusedError(`Outbound request refused: ${reason}`);
}
