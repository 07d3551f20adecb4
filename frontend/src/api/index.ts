export { ApiError, parseApiError, type ApiErrorCode } from "./errors";
export type {
  Api,
  Column,
  Connection,
  ConnectionDropped,
  ConnectionForm,
  ConnectionsApi,
  ConnectionState,
  ExplorerApi,
  Grid,
  Plugin,
  PluginList,
  PluginOffer,
  PluginProgress,
  PluginResult,
  PluginsApi,
  Table,
  TableCount,
  TableInfo,
  TableSettings,
  TestResult,
} from "./types";
export { ApiProvider, useApi } from "./context";
