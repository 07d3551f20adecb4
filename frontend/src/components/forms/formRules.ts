// The connection form's rules, apart from its markup so they are tested on their own.
import type { ConnectionForm } from "../../api";

export const AUTH_METHODS = ["None", "API Key"] as const;

/** The six SSL modes of the spec, in its order. New connections start on Disabled. */
export const SSL_MODES = ["Disabled", "Preferred", "Required", "Required (skip verify)", "Verify CA", "Verify Identity"] as const;

export const EXTERNAL_ACCESS = [
  { value: "blocked", label: "Blocked: invisible to AI clients" },
  { value: "readOnly", label: "Read-only" },
  { value: "readWrite", label: "Read and write (writes are approved by you)" },
] as const;

export const AI_POLICIES = [
  { value: "alwaysAsk", label: "Always ask, reads too" },
  { value: "askForWrites", label: "Ask for writes" },
  { value: "neverForWrites", label: "Never allow writes" },
] as const;

/** Domains of the hosted Weaviate Cloud service: its clusters answer on 443, HTTPS, with a key. */
const HOSTED_DOMAINS = [".weaviate.cloud", ".weaviate.network", ".semi.network"];

/** isHostedCloud tells whether a host name is a hosted Weaviate Cloud cluster. */
export function isHostedCloud(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/\.$/, "");
  return HOSTED_DOMAINS.some((d) => h.endsWith(d) && h.length > d.length);
}

/**
 * cloudSuggestion is what the form suggests for a hosted-cloud host: port 443, SSL Mode
 * Required and an API key, or null when the form already has them (or the host is local).
 */
export function cloudSuggestion(f: ConnectionForm): Partial<ConnectionForm> | null {
  if (!isHostedCloud(f.host)) return null;
  if (f.port === 443 && f.sslMode !== "Disabled" && f.authMethod === "API Key") return null;
  return { port: 443, sslMode: "Required", authMethod: "API Key" };
}

/** needsCA tells whether the SSL mode verifies against a CA file. */
export function needsCA(sslMode: string): boolean {
  return sslMode === "Verify CA" || sslMode === "Verify Identity";
}

/** A problem the form names at one of its fields (the field's label). */
export interface FieldProblem {
  field: "Name" | "Host" | "Port" | "API Key" | "gRPC port";
  message: string;
}

/**
 * fieldProblem is the first thing the form must fix before it is sent, at its field, or null
 * when none. The backend validates again; this only saves a round trip for what is plain to see.
 */
export function fieldProblem(f: ConnectionForm, apiKey: string, forSave: boolean): FieldProblem | null {
  if (forSave && f.name.trim() === "") return { field: "Name", message: "Name is required." };
  if (f.host.trim() === "") return { field: "Host", message: "Host is required." };
  if (f.host.includes("://")) return { field: "Host", message: "Host is a host name without http:// or https:// (choose HTTPS with SSL Mode)." };
  if (!Number.isInteger(f.port) || f.port < 1 || f.port > 65535) return { field: "Port", message: "Port must be a number from 1 to 65535." };
  if (f.authMethod === "API Key" && apiKey === "" && !f.hasAPIKey) return { field: "API Key", message: "Enter the API key, or choose Auth Method None." };
  if (!Number.isInteger(f.grpcPort) || f.grpcPort < 0 || f.grpcPort > 65535)
    return { field: "gRPC port", message: "gRPC port must be a number from 1 to 65535, or empty for the default." };
  return null;
}

/** formProblem is fieldProblem's message, or "" when none. */
export function formProblem(f: ConnectionForm, apiKey: string, forSave: boolean): string {
  return fieldProblem(f, apiKey, forSave)?.message ?? "";
}

/** portValue reads a port field as typed: a whole number, 0 for empty when empty is allowed, else NaN. */
export function portValue(text: string, emptyIs: number): number {
  const t = text.trim();
  if (t === "") return emptyIs;
  return /^\d+$/.test(t) ? Number(t) : Number.NaN;
}

/** newConnectionForm is a new connection of a type, with the spec's defaults. */
export function newConnectionForm(type: string): ConnectionForm {
  return {
    id: "",
    name: "",
    type,
    host: "localhost",
    port: 8080,
    authMethod: "None",
    sslMode: "Disabled",
    skipTLSVerify: false,
    caFile: "",
    grpcHost: "",
    grpcPort: 0,
    externalAccess: "readWrite",
    aiPolicy: "askForWrites",
    hasAPIKey: false,
  };
}
