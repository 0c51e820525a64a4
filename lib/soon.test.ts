import { describe, expect, it } from "vitest";
import { andThen, isThenable } from "./soon";

// A per-request check answers at once when its read was synchronous, and waits only for a real promise.
describe("andThen", () => {
  it("passes a present value on at once, without a promise", () => {
    const out = andThen(2, (n) => n * 3);
    expect(isThenable(out)).toBe(false);
    expect(out).toBe(6);
  });

  it("waits for a promise, and for any thenable (a Prisma query is one without being a Promise)", async () => {
    const out = andThen(Promise.resolve(2), (n) => n * 3);
    expect(isThenable(out)).toBe(true);
    expect(await out).toBe(6);
    const prismaLike = { then: (resolve: (v: number) => void) => resolve(5) } as PromiseLike<number>;
    expect(await andThen(prismaLike, (n) => n + 1)).toBe(6);
  });

  it("a refusal thrown by `next` is thrown at once for a present value and rejects for a pending one", async () => {
    const refuse = () => {
      throw new Error("no");
    };
    expect(() => andThen(1, refuse)).toThrow("no");
    await expect(Promise.resolve(andThen(Promise.resolve(1), refuse))).rejects.toThrow("no");
  });

  it("null, undefined, numbers and plain objects are values, not thenables", () => {
    for (const value of [null, undefined, 0, "then", { then: 1 }, []]) expect(isThenable(value)).toBe(false);
  });
});
