import { ApiError } from "@/lib/errors/api-error";
import { csvCodeOf } from "@/lib/market/providers/csv";
import { isRejection, resolveToken } from "@/lib/market/symbols";

// A file name stem is built from what a client sent, so it must never be able to name anything outside
// the data folder: no separators, no "..", no leading dot, a short plain alphabet.
const SAFE_STEM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

export function isSafeStem(stem: string): boolean {
  return SAFE_STEM.test(stem) && !stem.includes("..");
}

function invalidCode(message: string, reason: string, params: Record<string, string>): ApiError {
  return ApiError.of("validation_error", message, { reason_code: reason, reason_params: params });
}

/** The stock_code the csv provider looks up for what the client typed (600519, 00700, AAPL, sh000300). */
export function csvCodeForInput(input: string): string {
  const token = input.trim();
  if (/[\\/\0]|\.\./.test(token))
    throw invalidCode(`"${token}" is not a security code: give a code, not a path`, "path_not_code", { token });
  const resolved = resolveToken(token);
  // A code that does not resolve keeps the resolver's own reason code (the analyze request's vocabulary).
  if (isRejection(resolved))
    throw invalidCode(`${token}: ${resolved.reason}`, resolved.code, { ...resolved.params, token });
  const code = csvCodeOf(resolved);
  if (!isSafeStem(code))
    throw invalidCode(`${token} resolves to ${code}, which cannot name a file`, "unsafe_file_name", { token, code });
  return code;
}
