import { ERROR_STATUS, type ErrorCode } from "./error-codes";

/**
 * Thrown by services for every failure a client should see. The status usually follows from the code
 * (ERROR_STATUS); a few codes are shared by two statuses (invalid_password: 400 too short, 401 wrong).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;
  /** Response headers that belong to this error (e.g. Retry-After on 429). */
  headers: Record<string, string> = {};

  constructor(status: number, code: ErrorCode | string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.extra = extra;
  }

  withHeaders(headers: Record<string, string>): this {
    this.headers = { ...this.headers, ...headers };
    return this;
  }

  static of(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): ApiError {
    return new ApiError(ERROR_STATUS[code], code, message, extra);
  }
}

export function notFound(message: string): ApiError {
  return ApiError.of("not_found", message);
}
