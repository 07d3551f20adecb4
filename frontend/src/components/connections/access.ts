const ACCESS_LABELS: Record<string, string> = {
  blocked: "Blocked",
  readOnly: "Read-only",
  readWrite: "Read and write (each write approved)",
};

/** accessLabel names a connection's external-access level for people. */
export function accessLabel(access: string): string {
  return ACCESS_LABELS[access] ?? (access || "—");
}
