import pino from "pino";
import { getSettings } from "@/lib/config/settings";

// One JSON logger per process. Keys that could carry secrets are censored wherever they appear.
// Lines reach stdout asynchronously (issue 23 §3): with a write per line, every request's access log line stopped the
// event loop whenever stdout's reader (a pipe, a terminal, a log shipper) was slower than the server. pino writes
// what is still buffered when the process exits.
export const logger = pino(
  {
    level: getSettings().LOG_LEVEL,
    base: { service: "dsa" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ["*.password", "*.apiKey", "*.api_key", "*.token", "*.secret", "*.authorization", "*.cookie"],
      censor: "[redacted]",
    },
  },
  pino.destination({ dest: 1, sync: false }),
);

export function requestLogger(traceId: string) {
  return logger.child({ trace_id: traceId });
}
