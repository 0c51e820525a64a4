import { ApiError } from "@/lib/errors/api-error";
import { csvCodeOf } from "@/lib/market/providers/csv";
import { isRejection, resolveToken } from "@/lib/market/symbols";

// A file name stem is built from what a client sent, so it must never be able to name anything outside
// the data folder: no separators, no "..", no leading dot, a short plain alphabet.
const SAFE_STEM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

export function isSafeStem(stem: string): boolean {
  return SAFE_STEM.test(stem) && !stem.includes("..");
}

/** The stock_code the csv provider looks up for what the client typed (600519, 00700, AAPL, sh000300). */
export function csvCodeForInput(input: string): string {
  const token = input.trim();
  if (/[\\/\0]|\.\./.test(token))
    throw ApiError.of("validation_error", `"${token}" is not a security code: give a code, not a path`);
  const resolved = resolveToken(token);
  if (isRejection(resolved)) throw ApiError.of("validation_error", `${token}: ${resolved.reason}`);
  const code = csvCodeOf(resolved);
  if (!isSafeStem(code))
    throw ApiError.of("validation_error", `${token} resolves to ${code}, which cannot name a file`);
  return code;
}
