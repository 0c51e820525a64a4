// A minimal reader of the task stream for tests: parses `event:`/`data:` blocks as they arrive.

export interface SseEvent {
  event: string;
  data: unknown;
}

export interface SseReader {
  response: Response;
  next(timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

export async function readSse(url: string, init: RequestInit = {}): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const queue: SseEvent[] = [];

  const parseBlocks = () => {
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message";
      const data = lines
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .join("\n");
      queue.push({ event, data: data ? JSON.parse(data) : null });
      end = buffer.indexOf("\n\n");
    }
  };

  return {
    response,
    async next(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no SSE event within ${timeoutMs} ms`);
        let timer: NodeJS.Timeout | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no SSE event within ${timeoutMs} ms`)), left);
          }),
        ]).finally(() => clearTimeout(timer));
        if (chunk.done) throw new Error("stream ended");
        buffer += decoder.decode(chunk.value, { stream: true });
        parseBlocks();
      }
      return queue.shift()!;
    },
    close() {
      controller.abort();
    },
  };
}
