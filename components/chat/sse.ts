// Reads a text/event-stream body as it arrives (POST /api/v1/agent/chat/stream is a POST, so no EventSource).
// Each event is one or more `data:` lines and a blank line; lines starting with ":" are heartbeats. Fields other
// than `data` are not used by the chat stream, and an event whose data is not JSON is skipped.

export class SseParser {
  private buffer = "";
  private data: string[] = [];

  /** Feeds a decoded chunk; returns the payloads of the events it completed. */
  push(chunk: string): unknown[] {
    this.buffer += chunk;
    const events: unknown[] = [];
    let newline = this.buffer.indexOf("\n");
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      this.line(line.endsWith("\r") ? line.slice(0, -1) : line, events);
      newline = this.buffer.indexOf("\n");
    }
    return events;
  }

  /** The end of the body: an event left without its blank line still counts. */
  end(): unknown[] {
    const events: unknown[] = [];
    if (this.buffer) this.line(this.buffer.replace(/\r$/, ""), events);
    this.buffer = "";
    this.flush(events);
    return events;
  }

  private line(line: string, events: unknown[]): void {
    if (line === "") {
      this.flush(events);
      return;
    }
    if (line.startsWith(":") || !line.startsWith("data:")) return;
    const value = line.slice(5);
    this.data.push(value.startsWith(" ") ? value.slice(1) : value);
  }

  private flush(events: unknown[]): void {
    if (this.data.length === 0) return;
    const text = this.data.join("\n");
    this.data = [];
    try {
      events.push(JSON.parse(text));
    } catch {
      // A malformed event is skipped, as the reference client does.
    }
  }
}
