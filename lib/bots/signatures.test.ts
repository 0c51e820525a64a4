import { describe, expect, it } from "vitest";
import {
  dingtalkSign,
  feishuDecrypt,
  feishuEncrypt,
  feishuSignature,
  wecomDecrypt,
  wecomEncrypt,
  wecomSignature,
} from "./signatures";

// The platforms' own published samples, then round trips of what the bots and the tests' fake platforms build.

describe("WeCom callback crypto", () => {
  // The URL-check sample of WeCom's 加解密方案 documentation.
  const sample = {
    token: "QDG6eK",
    corpId: "wx5823bf96d3bd56c7",
    aesKey: "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C",
    timestamp: "1409659589",
    nonce: "263014780",
    echostr: "P9nAzCzyDtyTWESHep1vC5X9xho/qYX3Zpb4yKa9SKld1DsH3Iyt3tP3zNdtp+4RPcs8TgAE7OaBO+FZXvnaqQ==",
  };

  it("signs and decrypts the documented sample", () => {
    expect(wecomSignature(sample.token, sample.timestamp, sample.nonce, sample.echostr)).toBe(
      "5c45ff5e21c57e6ad56bac8758b79b1d9ac89fd3",
    );
    expect(wecomDecrypt(sample.aesKey, sample.echostr, sample.corpId)).toBe("1616140317555161061");
  });

  it("refuses a message for another corp and a damaged one", () => {
    expect(() => wecomDecrypt(sample.aesKey, sample.echostr, "another-corp")).toThrow(/another receiver/);
    const damaged = Buffer.from(sample.echostr, "base64");
    damaged[damaged.length - 1]! ^= 0xff;
    expect(() => wecomDecrypt(sample.aesKey, damaged.toString("base64"), sample.corpId)).toThrow();
  });

  it("round-trips Chinese text across block boundaries", () => {
    for (const text of [
      "",
      "分析 600519",
      "x".repeat(31),
      "<xml><Content><![CDATA[自选]]></Content></xml>".repeat(5),
    ]) {
      expect(wecomDecrypt(sample.aesKey, wecomEncrypt(sample.aesKey, text, sample.corpId), sample.corpId)).toBe(text);
    }
  });
});

describe("Feishu event crypto", () => {
  it("decrypts the documented sample", () => {
    expect(feishuDecrypt("test key", "P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk=")).toBe("hello world");
  });

  it("round-trips and signs timestamp + nonce + key + body", () => {
    const body = JSON.stringify({ encrypt: feishuEncrypt("k", '{"type":"url_verification"}') });
    expect(feishuDecrypt("k", JSON.parse(body).encrypt)).toBe('{"type":"url_verification"}');
    expect(feishuSignature("1", "n", "k", body)).toMatch(/^[0-9a-f]{64}$/);
    expect(feishuSignature("1", "n", "k", body)).not.toBe(feishuSignature("1", "n", "k", `${body} `));
  });
});

describe("DingTalk outgoing robot", () => {
  it("signs timestamp\\nsecret with the secret (Base64 HMAC-SHA256)", () => {
    const sign = dingtalkSign("1700000000000", "secret");
    expect(Buffer.from(sign, "base64")).toHaveLength(32);
    expect(dingtalkSign("1700000000001", "secret")).not.toBe(sign);
  });
});
