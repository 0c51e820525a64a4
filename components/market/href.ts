/** The Market page showing the latest review of one region. */
export function marketHref(region: string): string {
  return `/market?region=${encodeURIComponent(region)}`;
}
