import { describe, expect, it } from "vitest";
import { connectionForm, weaviateDescription } from "../../test/fakeApi";
import { fieldProblem, intValue, newConnectionForm, sections, suggestionFor } from "./formRules";

const d = weaviateDescription();
const problem = (f: Parameters<typeof fieldProblem>[1], secrets: Record<string, string>, forSave: boolean) => fieldProblem(d, f, secrets, forSave)?.message ?? "";

describe("connection form rules, read from the Weaviate plugin's description", () => {
  it("a new connection starts on port 8080, SSL Mode Disabled, Auth Method None (SPEC A)", () => {
    const f = newConnectionForm("weaviate", d);
    expect([f.values.port, f.values.sslMode, f.values.authMethod, f.type]).toEqual(["8080", "Disabled", "None", "weaviate"]);
  });

  it("offers exactly the spec's six SSL modes, in order", () => {
    expect(d.settings.find((f) => f.key === "sslMode")?.options).toEqual(["Disabled", "Preferred", "Required", "Required (skip verify)", "Verify CA", "Verify Identity"]);
  });

  it("groups the main fields first, then Advanced", () => {
    expect(sections(d).map((s) => [s.name, s.fields.map((f) => f.key).join(",")])).toEqual([
      ["", "host,port,authMethod,apiKey,sslMode"],
      ["Advanced", "skipTLSVerify,caFile,grpcHost,grpcPort"],
    ]);
  });

  it.each([
    ["abc123.c0.europe-west3.gcp.weaviate.cloud", true],
    ["my-cluster.weaviate.network", true],
    ["WCS.WEAVIATE.CLOUD.", true],
    ["weaviate.cloud", false],
    ["localhost", false],
    ["weaviate.cloud.example.com", false],
  ])("a host ending in a hosted-cloud domain gets the suggestion: %s -> %s", (host, want) => {
    expect(suggestionFor(d, connectionForm({ values: { host } }).values) !== null).toBe(want);
  });

  it("a hosted-cloud host suggests port 443, SSL Mode Required and API Key, until the form has them", () => {
    const values = connectionForm({ values: { host: "x.weaviate.cloud" } }).values;
    expect(suggestionFor(d, values)?.set).toEqual({ port: "443", sslMode: "Required", authMethod: "API Key" });
    expect(suggestionFor(d, { ...values, port: "443", sslMode: "Required", authMethod: "API Key" })).toBeNull();
  });

  it.each([
    [{ name: "" }, {}, true, "Name is required."],
    [{ name: "n", values: { host: " " } }, {}, true, "Host is required."],
    [{ name: "n", values: { host: "https://x" } }, {}, true, "Host is a host name without http:// or https://."],
    [{ name: "n", values: { port: "0" } }, {}, true, "Port must be a number from 1 to 65535."],
    [{ name: "n", values: { port: "80x" } }, {}, true, "Port must be a number from 1 to 65535."],
    [{ name: "n", values: { port: "" } }, {}, true, "Port is required."],
    [{ name: "n", values: { authMethod: "API Key" } }, {}, true, "Enter the API Key, or change Auth Method."],
    [{ name: "n", values: { authMethod: "API Key" }, savedSecrets: ["apiKey"] }, {}, true, ""],
    [{ name: "n", values: { authMethod: "API Key" } }, { apiKey: "k" }, true, ""],
    [{ name: "" }, {}, false, ""],
    [{ name: "n", values: { grpcPort: "70000" } }, {}, true, "gRPC port must be a number from 1 to 65535, or empty for the default."],
    [{ name: "n", values: { grpcPort: "x" } }, {}, true, "gRPC port must be a number from 1 to 65535, or empty for the default."],
    [{ name: "n", values: { grpcPort: "50051" } }, {}, true, ""],
    [{ name: "n", values: { grpcPort: "" } }, {}, true, ""],
  ])("fieldProblem(%o, secrets %j, save %s) = %j", (patch, secrets, forSave, want) => {
    expect(problem(connectionForm(patch), secrets, forSave)).toBe(want);
  });

  it.each([
    ["8080", 8080],
    [" 443 ", 443],
    ["", Number.NaN],
    ["abc", Number.NaN],
    ["12abc", Number.NaN],
    ["1e3", Number.NaN],
    ["-1", Number.NaN],
  ])("intValue(%j) = %s: an int is a whole number as typed", (text, want) => {
    expect(intValue(text)).toBe(want);
  });
});
