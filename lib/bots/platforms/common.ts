import { ApiError } from "@/lib/errors/api-error";

// What every platform's webhook shares: the answers to a switched-off bot, a bad signature and an unreadable body.

export function botOff(platform: string, setting: string): ApiError {
  return ApiError.of("not_found", `The ${platform} bot is switched off (${setting})`);
}

export function badSignature(platform: string): ApiError {
  return ApiError.of("unauthorized", `The ${platform} signature check failed`);
}

export function notConfigured(platform: string, missing: string[]): ApiError {
  return ApiError.of("service_unavailable", `The ${platform} bot is missing settings: ${missing.join(", ")}`);
}

export function parseJsonBody(platform: string, body: string): Record<string, unknown> {
  try {
    const value = JSON.parse(body) as unknown;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw ApiError.of("invalid_request", `The ${platform} request body is not a JSON object`);
}

export function missingOf(values: Record<string, string>): string[] {
  return Object.entries(values)
    .filter(([, value]) => value === "")
    .map(([key]) => key);
}
