// Backend errors reach the UI as the rejected value of a bound method's promise. Wails v2
// rejects with the Go error's text only, so the facade (app/) gives every error the stable
// shape `code: message`; parseApiError turns that text back into a typed ApiError.

/**
 * Codes the Go facade emits (app/errors.go UICodes): the driver's error kinds (backend/driver
 * Kinds) plus the facade's own. "unknown" is the UI's code for text without a code. Unknown
 * codes are kept as they are. Go is the one source: app/errors_test.go reads this list and
 * fails when it differs from UICodes() plus "unknown".
 */
const CODES = [
  // driver kinds
  "auth",
  "connection",
  "refused_filter",
  "invalid_argument",
  "not_found",
  "timeout",
  "cancelled",
  "unsupported",
  "query_failed",
  "not_permitted",
  "inactive_tenant",
  "conflict",
  // facade
  "unavailable",
  "internal",
  "plugin",
  // UI only: text without a code
  "unknown",
] as const;

export type ApiErrorCode = (typeof CODES)[number];

const KNOWN_CODES: ReadonlySet<string> = new Set<string>(CODES);

/** A failed backend call: a machine-readable code and a message fit to show the user. */
export class ApiError extends Error {
  readonly code: ApiErrorCode | (string & {});

  constructor(code: string, message: string) {
    super(message);
    this.name = "ApiError";
    this.code = code;
  }

  /** isKnown reports whether the code is one the facade documents. */
  get isKnown(): boolean {
    return KNOWN_CODES.has(this.code);
  }
}

// A code is a lower-case identifier; the first ": " separates it from the message, so a
// message may itself contain colons ("unavailable: Connection failed: dial tcp ...").
const CODE_PREFIX = /^([a-z][a-z0-9_]*):\s?([\s\S]*)$/;

/** parseApiError turns whatever a rejected binding promise carried into an ApiError. */
export function parseApiError(reason: unknown): ApiError {
  if (reason instanceof ApiError) return reason;
  const text = textOf(reason).trim();
  const m = CODE_PREFIX.exec(text);
  if (m && m[2].trim() !== "") return new ApiError(m[1], m[2].trim());
  return new ApiError("unknown", text === "" ? "Unknown error" : text);
}

function textOf(reason: unknown): string {
  if (typeof reason === "string") return reason;
  if (reason instanceof Error) return reason.message;
  if (reason && typeof reason === "object" && "message" in reason) {
    const msg = (reason as { message: unknown }).message;
    if (typeof msg === "string") return msg;
  }
  if (reason === undefined || reason === null) return "";
  try {
    return JSON.stringify(reason);
  } catch {
    return String(reason);
  }
}
