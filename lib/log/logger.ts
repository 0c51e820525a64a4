import pino from "pino";
import { getSettings } from "@/lib/config/settings";

// One JSON logger per process. Keys that could carry secrets are censored wherever they appear.
export const logger = pino({
  level: getSettings().LOG_LEVEL,
  base: { service: "dsa" },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: {
    paths: ["*.password", "*.apiKey", "*.api_key", "*.token", "*.secret", "*.authorization", "*.cookie"],
    censor: "[redacted]",
  },
});

export function requestLogger(traceId: string) {
  return logger.child({ trace_id: traceId });
}
