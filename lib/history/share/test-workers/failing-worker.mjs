// A stand-in renderer thread for png.test.ts: every card fails as a crashed layout engine would report it.
export default function failingRender() {
  throw new Error("layout engine crashed");
}
