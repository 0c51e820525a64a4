// Writes a UI preference cookie (language, theme) for a year; the server reads it on the next render.
export function writePreferenceCookie(name: string, value: string): void {
  const oneYear = 60 * 60 * 24 * 365;
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${oneYear}; samesite=lax`;
}
