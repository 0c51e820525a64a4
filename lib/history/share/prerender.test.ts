import { afterEach, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { prerenderShareImage } from "./prerender";

// Which stored reports get their share image drawn in the background: the draw itself (getShareImagePng through
// the PNG cache) is tested over HTTP in tests/api/history-share.test.ts.

afterEach(() => setEnvironmentForTests(process.env));

function env(values: Record<string, string>) {
  setEnvironmentForTests({ ENV_FILE: "/nonexistent/dsa-prerender-test.env", ...values });
}

describe("share image drawn when a report is stored", () => {
  it("draws the record's image by default; not with SHARE_IMAGE_PRERENDER=false or SHARE_IMAGE_PNG_ENABLED=false", async () => {
    const asked: string[] = [];
    const draw = async (id: string) => void asked.push(id);
    env({});
    prerenderShareImage(7, draw);
    env({ SHARE_IMAGE_PRERENDER: "false" });
    prerenderShareImage(8, draw);
    env({ SHARE_IMAGE_PNG_ENABLED: "false" });
    prerenderShareImage(9, draw);
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual(["7"]);
  });

  it("at most four wait at once: a batch's further reports are left to their first request; a failure is swallowed", async () => {
    env({});
    const asked: string[] = [];
    const finish: Array<() => void> = [];
    const draw = (id: string) => {
      asked.push(id);
      return new Promise<void>((_, reject) => finish.push(() => reject(new Error("too large"))));
    };
    for (let id = 1; id <= 6; id++) prerenderShareImage(id, draw);
    expect(asked).toEqual(["1", "2", "3", "4"]);
    finish.splice(0).forEach((fail) => fail());
    await new Promise((resolve) => setTimeout(resolve, 10));
    prerenderShareImage(7, draw);
    expect(asked).toEqual(["1", "2", "3", "4", "7"]);
    finish.splice(0).forEach((fail) => fail());
  });
});
