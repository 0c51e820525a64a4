import { vi } from "vitest";

// "server-only" throws outside React's server bundle; unit tests run plain Node.
vi.mock("server-only", () => ({}));
