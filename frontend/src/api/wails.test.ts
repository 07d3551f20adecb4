import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { toDropped } from "./wails";

describe("toDropped reads the connection:dropped payload (dto.ConnectionDroppedEvent)", () => {
  it("keeps the id, the code and the driver's message", () => {
    const e = toDropped({ id: "c1", code: "auth", message: "Authentication failed: the API key was rejected" });
    expect(e.id).toBe("c1");
    expect(e.error).toBeInstanceOf(ApiError);
    expect(e.error.code).toBe("auth");
    expect(e.error.message).toBe("Authentication failed: the API key was rejected");
  });

  it("a malformed payload still gives a message", () => {
    const e = toDropped(undefined);
    expect(e.id).toBe("");
    expect(e.error.code).toBe("unknown");
    expect(e.error.message).toBe("The connection was dropped");
  });
});
