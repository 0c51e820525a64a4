import { readFailure } from "@/components/auth/api-errors";

// The pages' JSON calls to the API, typed by the caller. A failure is thrown as the API's own message (e.g. the
// import error naming the CSV line), so a form can show it as is; an answer without a body (204) is undefined.

export class RequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = "RequestError";
  }
}

export async function requestJson<T>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers:
        body === undefined
          ? { accept: "application/json" }
          : { "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch (error) {
    throw new RequestError((error as Error).message || "network error", 0, "network_error");
  }
  if (!res.ok) {
    const failure = await readFailure(res);
    throw new RequestError(failure.message, failure.status, failure.code);
  }
  const text = await res.text();
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
