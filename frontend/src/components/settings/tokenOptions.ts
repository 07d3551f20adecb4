// The choices a new token offers, one list for Settings, MCP tokens and Connect a client.

/** Token levels with what each allows (backend/auth's level table). */
export const LEVELS = [
  { value: "readOnly", label: "Read only: read tools and resources" },
  { value: "readWrite", label: "Read and write: writes still approved by you, one by one" },
  { value: "fullAccess", label: "Full access: also admin tools" },
] as const;

/** Expiries, as `app token create --expires` takes them. */
export const EXPIRIES = [
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
  { value: "365d", label: "1 year" },
  { value: "never", label: "Never" },
] as const;
