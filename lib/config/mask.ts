// The mask the config API shows for a saved secret, and how a submitted value is read as "keep the saved one": the
// mask token the client was given, or any run of asterisks (clients that draw their own).

export const MASK_TOKEN = "******";

export function isMaskValue(value: string, maskToken: string = MASK_TOKEN): boolean {
  return value === maskToken || /^\*{3,}$/.test(value);
}
