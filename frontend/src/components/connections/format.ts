import type { Connection } from "../../api";

/**
 * typeLabel is a database type's name where its plugin's own label is not at hand (the
 * sidebar's badge): the type capitalized. The form and the chooser show the plugin's label.
 */
export function typeLabel(type: string, label?: string): string {
  if (label) return label;
  return type === "" ? "Unknown" : type.charAt(0).toUpperCase() + type.slice(1);
}

/** address is where a connection points: its plugin's words, else host:port (IPv6 literals bracketed, "[::1]:8080"). */
export function address(c: Pick<Connection, "host" | "port" | "address">): string {
  if (c.address) return c.address;
  const host = c.host.includes(":") && !c.host.startsWith("[") ? `[${c.host}]` : c.host;
  return c.port ? `${host}:${c.port}` : host;
}

/** usesTLS reports whether the connection talks HTTPS (every SSL mode but Disabled). */
export function usesTLS(c: Pick<Connection, "sslMode">): boolean {
  return c.sslMode !== "" && c.sslMode !== "Disabled";
}
