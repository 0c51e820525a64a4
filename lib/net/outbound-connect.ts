import dns from "node:dns";
import net from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { getSettings } from "@/lib/settings/settings";
import {
  assertOutboundAllowed,
  isPrivateAddress,
  OutboundRefusedError,
  privateAddressRefusal,
} from "./outbound-policy";

// The connect-time half of the outbound policy. Checking a URL's name before the request is not enough on
// its own: fetch resolves the name again when it connects, and a DNS answer that changes in between (DNS
// rebinding: public at the check, 127.0.0.1 or 169.254.169.254 at the connect) would reach the inside. Here
// the socket's own lookup refuses private addresses, so the address connected to is always one that was
// checked. Literal IP addresses never reach a lookup; the URL check (literalOutboundRefusal) covers them.

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;
type DnsLookup = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

const systemLookup: DnsLookup = (hostname, options, callback) => dns.lookup(hostname, options, callback);

/** A `lookup` for net/tls.connect that resolves the name and refuses it when any address is private (unless allowed). */
export function guardedLookup(allowPrivate: () => boolean, resolve: DnsLookup = systemLookup) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const inside = allowPrivate() ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      if (inside)
        return callback(
          Object.assign(
            new OutboundRefusedError(`Outbound request refused: ${privateAddressRefusal(hostname, inside.address)}`),
            { code: "ERR_OUTBOUND_REFUSED" },
          ),
          "",
        );
      if (addresses.length === 0)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** An undici Agent whose sockets connect only through the guarded lookup. */
export function guardedAgent(allowPrivate: () => boolean, resolve?: DnsLookup): Agent {
  return new Agent({ connect: { lookup: guardedLookup(allowPrivate, resolve) as never } });
}

let agent: Agent | undefined;

function outboundAgent(): Agent {
  agent ??= guardedAgent(() => getSettings().OUTBOUND_ALLOW_PRIVATE);
  return agent;
}

/**
 * fetch for destinations a user configured (notification webhooks, LLM base URLs): the URL policy first
 * (scheme, literal addresses, blocked names, every address the name resolves to), then the request over
 * sockets whose connect-time lookup applies the same address check.
 */
export async function guardedFetch(
  input: string | URL,
  init: RequestInit = {},
  dispatcher: Agent = outboundAgent(),
): Promise<Response> {
  const url = typeof input === "string" ? input : input.href;
  await assertOutboundAllowed(url, getSettings().OUTBOUND_ALLOW_PRIVATE);
  return (await undiciFetch(url, { ...(init as object), dispatcher })) as unknown as Response;
}

/** The OutboundRefusedError behind a failed fetch (the connect-time refusal arrives as its cause), if any. */
export function outboundRefusalOf(error: unknown): OutboundRefusedError | null {
  for (let e = error as { cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof OutboundRefusedError) return e;
  }
  return null;
}

/**
 * For clients that resolve names themselves (nodemailer): the host's checked address to connect to, so the
 * connection goes to an address that passed the policy. The name stays the TLS server name.
 */
export async function pinnedAddress(host: string, resolve: DnsLookup = systemLookup): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (net.isIP(bare)) return bare;
  const addresses = await new Promise<dns.LookupAddress[]>((done, fail) =>
    resolve(bare, { all: true }, (error, found) => (error ? fail(error) : done(found))),
  );
  const allowPrivate = getSettings().OUTBOUND_ALLOW_PRIVATE;
  const inside = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
  if (inside)
    throw new OutboundRefusedError(`Outbound request refused: ${privateAddressRefusal(bare, inside.address)}`);
  if (addresses.length === 0) throw new OutboundRefusedError(`Outbound request refused: ${bare} cannot be resolved`);
  return addresses[0]!.address;
}
