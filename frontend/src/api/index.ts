export { ApiError, parseApiError, type ApiErrorCode } from "./errors";
export type { Api, Connection, ConnectionsApi } from "./types";
export { ApiProvider, useApi } from "./context";
