export { ApiError, parseApiError, type ApiErrorCode } from "./errors";
export type * from "./types";
export { ApiProvider, useApi } from "./context";
