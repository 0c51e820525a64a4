import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// The platforms' documented signature and encryption schemes, each both ways (the bots verify and decrypt what
// arrives; WeCom's echo and the tests' fake platforms sign and encrypt). Pure functions of their inputs.

/** Compares two strings in constant time (a signature check must not leak how much of it matched). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// ---- DingTalk outgoing robot: sign = Base64(HMAC-SHA256(appSecret, "<timestamp>\n<appSecret>"))

export function dingtalkSign(timestamp: string, appSecret: string): string {
  return createHmac("sha256", appSecret).update(`${timestamp}\n${appSecret}`).digest("base64");
}

// ---- Feishu event subscription

/** X-Lark-Signature: SHA-256 hex of timestamp + nonce + encrypt key + the raw body. */
export function feishuSignature(timestamp: string, nonce: string, encryptKey: string, body: string): string {
  return createHash("sha256")
    .update(timestamp + nonce + encryptKey + body)
    .digest("hex");
}

/** AES-256-CBC with key SHA-256(encrypt key); the Base64 text is the IV (16 bytes) then the cipher text. */
export function feishuDecrypt(encryptKey: string, encrypted: string): string {
  const raw = Buffer.from(encrypted, "base64");
  if (raw.length < 32) throw new Error("encrypted event too short");
  const key = createHash("sha256").update(encryptKey).digest();
  const decipher = createDecipheriv("aes-256-cbc", key, raw.subarray(0, 16));
  return Buffer.concat([decipher.update(raw.subarray(16)), decipher.final()]).toString("utf8");
}

export function feishuEncrypt(encryptKey: string, plain: string, iv: Buffer = randomBytes(16)): string {
  const key = createHash("sha256").update(encryptKey).digest();
  const cipher = createCipheriv("aes-256-cbc", key, iv);
  return Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final()]).toString("base64");
}

// ---- WeCom callback (企业微信 加解密方案)

/** msg_signature: SHA-1 hex of token, timestamp, nonce and the encrypted text, sorted and joined. */
export function wecomSignature(token: string, timestamp: string, nonce: string, encrypted: string): string {
  return createHash("sha1").update([token, timestamp, nonce, encrypted].sort().join("")).digest("hex");
}

function wecomKey(encodingAesKey: string): Buffer {
  const key = Buffer.from(`${encodingAesKey}=`, "base64");
  if (encodingAesKey.length !== 43 || key.length !== 32) throw new Error("EncodingAESKey must be 43 characters");
  return key;
}

const WECOM_BLOCK = 32;

/**
 * AES-256-CBC, IV = the key's first 16 bytes, PKCS#7 padding to 32-byte blocks. The plain text is 16 random bytes,
 * the message length (4 bytes, big-endian), the message and the receiver id (the CorpID), which must match.
 */
export function wecomDecrypt(encodingAesKey: string, encrypted: string, receiverId: string): string {
  const key = wecomKey(encodingAesKey);
  const decipher = createDecipheriv("aes-256-cbc", key, key.subarray(0, 16));
  decipher.setAutoPadding(false);
  const padded = Buffer.concat([decipher.update(Buffer.from(encrypted, "base64")), decipher.final()]);
  const pad = padded[padded.length - 1] ?? 0;
  if (pad < 1 || pad > WECOM_BLOCK || pad > padded.length) throw new Error("bad padding");
  const plain = padded.subarray(0, padded.length - pad);
  if (plain.length < 20) throw new Error("encrypted message too short");
  const length = plain.readUInt32BE(16);
  if (20 + length > plain.length) throw new Error("bad message length");
  const message = plain.subarray(20, 20 + length).toString("utf8");
  const receiver = plain.subarray(20 + length).toString("utf8");
  if (!sameText(receiver, receiverId)) throw new Error("the message is for another receiver");
  return message;
}

export function wecomEncrypt(
  encodingAesKey: string,
  message: string,
  receiverId: string,
  random: Buffer = randomBytes(16),
): string {
  const key = wecomKey(encodingAesKey);
  const body = Buffer.from(message, "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const plain = Buffer.concat([random, length, body, Buffer.from(receiverId, "utf8")]);
  const pad = WECOM_BLOCK - (plain.length % WECOM_BLOCK);
  const cipher = createCipheriv("aes-256-cbc", key, key.subarray(0, 16));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])), cipher.final()]).toString(
    "base64",
  );
}
