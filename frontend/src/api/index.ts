export { ApiError, parseApiError, type ApiErrorCode } from "./errors";
export type {
  Api,
  Column,
  Connection,
  ConnectionDropped,
  ConnectionsApi,
  ConnectionState,
  ExplorerApi,
  Grid,
  Table,
  TableCount,
  TableInfo,
  TableSettings,
} from "./types";
export { ApiProvider, useApi } from "./context";
