import { expect } from "vitest";

// The reference's web client as far as the wire goes (docs/api.md §12.0): JSON bodies in snake_case, the
// session cookie sent along, an Origin of the page it was served from. Tests assert on the raw snake_case
// answer: the client's deep camelCase conversion only renames what is there.

export const COMPAT_PASSWORD = "compat-pass-1";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire answers are asserted field by field, as the client reads them
export type Wire = any;

export type Call = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: Wire; headers: Headers }>;

export function referenceClient(base: string, cookie?: string): Call {
  return async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        accept: "application/json, text/plain, */*",
        origin: base,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === "" ? null : JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
}

/** First login on an auth-on server sets the password (the reference's first-run flow). */
export async function loginCookie(base: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ password: COMPAT_PASSWORD, passwordConfirm: COMPAT_PASSWORD }),
  });
  expect(res.status).toBe(200);
  const match = /dsa_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "");
  if (!match) throw new Error("no session cookie");
  return `dsa_session=${match[1]}`;
}

/** Every key in `keys` is present (the client reads them; null is allowed only where §12 marks `?`). */
export function expectKeys(record: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of keys) expect(record, `missing ${key}`).toHaveProperty(key);
}
