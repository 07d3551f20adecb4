import { describe, expect, it } from "vitest";
import { ApiError, parseApiError } from "./errors";

describe("parseApiError: Wails rejects with the Go error text `code: message`", () => {
  const cases: { name: string; reason: unknown; code: string; message: string; known: boolean }[] = [
    {
      name: "a known code and a message",
      reason: "not_found: connection c9 not found",
      code: "not_found",
      message: "connection c9 not found",
      known: true,
    },
    {
      name: "a message containing colons keeps everything after the first separator",
      reason: "unavailable: Connection failed: dial tcp 127.0.0.1:8080: connect: refused",
      code: "unavailable",
      message: "Connection failed: dial tcp 127.0.0.1:8080: connect: refused",
      known: true,
    },
    {
      name: "a driver kind keeps the spec's message prefix",
      reason: "auth: Authentication failed: the API key was rejected",
      code: "auth",
      message: "Authentication failed: the API key was rejected",
      known: true,
    },
    {
      name: "an unknown but well-formed code is kept",
      reason: "plugin_missing: the weaviate driver is not installed",
      code: "plugin_missing",
      message: "the weaviate driver is not installed",
      known: false,
    },
    {
      name: "text without a code becomes unknown with the whole text",
      reason: "Authentication failed: key rejected",
      code: "unknown",
      message: "Authentication failed: key rejected",
      known: true,
    },
    {
      name: "a code with nothing after it is not a code",
      reason: "internal:",
      code: "unknown",
      message: "internal:",
      known: true,
    },
    {
      name: "an Error object is read by its message",
      reason: new Error("invalid_argument: name is required"),
      code: "invalid_argument",
      message: "name is required",
      known: true,
    },
    {
      name: "an object with a message field",
      reason: { message: "unavailable: the connection is not open: connect to it first" },
      code: "unavailable",
      message: "the connection is not open: connect to it first",
      known: true,
    },
    { name: "undefined", reason: undefined, code: "unknown", message: "Unknown error", known: true },
    { name: "an empty string", reason: "  ", code: "unknown", message: "Unknown error", known: true },
    {
      name: "surrounding whitespace is trimmed",
      reason: "  internal: disk full \n",
      code: "internal",
      message: "disk full",
      known: true,
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const err = parseApiError(c.reason);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toBeInstanceOf(Error);
      expect(err.code).toBe(c.code);
      expect(err.message).toBe(c.message);
      expect(err.isKnown).toBe(c.known);
    });
  }

  it("returns an ApiError unchanged", () => {
    const e = new ApiError("not_found", "gone");
    expect(parseApiError(e)).toBe(e);
  });
});
