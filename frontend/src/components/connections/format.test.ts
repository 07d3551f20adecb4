import { describe, expect, it } from "vitest";
import { address, typeLabel, usesTLS } from "./format";

describe("connection formatting", () => {
  it.each([
    ["localhost", 8080, "localhost:8080"],
    ["cluster.example.weaviate.cloud", 443, "cluster.example.weaviate.cloud:443"],
    ["::1", 8080, "[::1]:8080"],
    ["[::1]", 8080, "[::1]:8080"],
    ["localhost", 0, "localhost"],
  ])("address(%s, %d) = %s", (host, port, want) => {
    expect(address({ host, port, address: "" })).toBe(want);
  });

  it("names known types and capitalises others", () => {
    expect(typeLabel("weaviate")).toBe("Weaviate");
    expect(typeLabel("postgres")).toBe("Postgres");
    expect(typeLabel("")).toBe("Unknown");
  });

  it("every SSL mode but Disabled uses TLS", () => {
    expect(usesTLS({ sslMode: "Disabled" })).toBe(false);
    for (const m of ["Preferred", "Required", "Required (skip verify)", "Verify CA", "Verify Identity"]) {
      expect(usesTLS({ sslMode: m })).toBe(true);
    }
  });
});
