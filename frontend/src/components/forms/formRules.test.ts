import { describe, expect, it } from "vitest";
import { cloudSuggestion, formProblem, isHostedCloud, newConnectionForm, portValue, SSL_MODES } from "./formRules";

describe("connection form rules", () => {
  it("a new connection starts on port 8080, SSL Mode Disabled, Auth Method None (SPEC A)", () => {
    const f = newConnectionForm("weaviate");
    expect([f.port, f.sslMode, f.authMethod, f.type]).toEqual([8080, "Disabled", "None", "weaviate"]);
  });

  it("offers exactly the spec's six SSL modes, in order", () => {
    expect(SSL_MODES).toEqual(["Disabled", "Preferred", "Required", "Required (skip verify)", "Verify CA", "Verify Identity"]);
  });

  it.each([
    ["abc123.c0.europe-west3.gcp.weaviate.cloud", true],
    ["my-cluster.weaviate.network", true],
    ["WCS.WEAVIATE.CLOUD.", true],
    ["weaviate.cloud", false],
    ["localhost", false],
    ["weaviate.cloud.example.com", false],
  ])("a host ending in a hosted-cloud domain is the hosted cloud: %s -> %s", (host, want) => {
    expect(isHostedCloud(host)).toBe(want);
  });

  it("a hosted-cloud host suggests port 443, SSL Mode Required and API Key, until the form has them", () => {
    const f = { ...newConnectionForm("weaviate"), host: "x.weaviate.cloud" };
    expect(cloudSuggestion(f)).toEqual({ port: 443, sslMode: "Required", authMethod: "API Key" });
    expect(cloudSuggestion({ ...f, port: 443, sslMode: "Verify Identity", authMethod: "API Key" })).toBeNull();
    expect(cloudSuggestion(newConnectionForm("weaviate"))).toBeNull();
  });

  it.each([
    [{ name: "" }, "", true, "Name is required."],
    [{ name: "n", host: " " }, "", true, "Host is required."],
    [{ name: "n", host: "https://x" }, "", true, "Host is a host name without http:// or https:// (choose HTTPS with SSL Mode)."],
    [{ name: "n", port: 0 }, "", true, "Port must be a number from 1 to 65535."],
    [{ name: "n", port: Number.NaN }, "", true, "Port must be a number from 1 to 65535."],
    [{ name: "n", authMethod: "API Key" }, "", true, "Enter the API key, or choose Auth Method None."],
    [{ name: "n", authMethod: "API Key", hasAPIKey: true }, "", true, ""],
    [{ name: "n", authMethod: "API Key" }, "k", true, ""],
    [{ name: "" }, "", false, ""],
    [{ name: "n", grpcPort: 70000 }, "", true, "gRPC port must be a number from 1 to 65535, or empty for the default."],
    [{ name: "n", grpcPort: Number.NaN }, "", true, "gRPC port must be a number from 1 to 65535, or empty for the default."],
    [{ name: "n", grpcPort: 50051 }, "", true, ""],
  ])("formProblem(%o, key %j, save %s) = %j", (patch, key, forSave, want) => {
    expect(formProblem({ ...newConnectionForm("weaviate"), ...patch }, key, forSave)).toBe(want);
  });

  it.each([
    ["8080", Number.NaN, 8080],
    [" 443 ", Number.NaN, 443],
    ["", Number.NaN, Number.NaN],
    ["", 0, 0],
    ["abc", 0, Number.NaN],
    ["12abc", 0, Number.NaN],
    ["1e3", 0, Number.NaN],
    ["-1", 0, Number.NaN],
  ])("portValue(%j, empty %s) = %s: a port is a whole number as typed", (text, empty, want) => {
    expect(portValue(text, empty)).toBe(want);
  });
});
