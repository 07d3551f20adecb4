import { describe, expect, it } from "vitest";
import { crc32, dataUrl, encodePng } from "./png";

/** chunks reads a PNG's chunks: type, data, and whether its CRC holds. */
function chunks(png: Uint8Array): { type: string; data: Uint8Array<ArrayBuffer>; crcOk: boolean }[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out = [];
  for (let at = 8; at < png.length; ) {
    const n = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = new Uint8Array(png.subarray(at + 8, at + 8 + n));
    out.push({ type, data, crcOk: crc32(png.subarray(at + 4, at + 8 + n)) === view.getUint32(at + 8 + n) });
    at += 12 + n;
  }
  return out;
}

async function inflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const ds = new DecompressionStream("deflate");
  const out = new Response(ds.readable).arrayBuffer();
  const w = ds.writable.getWriter();
  await w.write(bytes);
  await w.close();
  return new Uint8Array(await out);
}

describe("the map's picture as a PNG (Save picture…)", () => {
  it("CRC-32 is the PNG one", () => {
    expect(crc32(new TextEncoder().encode("IEND"))).toBe(0xae426082);
  });

  it("encodes RGBA pixels exactly: the signature, IHDR, the rows in IDAT, IEND, every CRC right", async () => {
    // 3 x 2: red, green, blue / white, black, half-transparent grey
    const data = Uint8ClampedArray.from([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255, 0, 0, 0, 255, 128, 128, 128, 128]);
    const png = await encodePng({ width: 3, height: 2, data });
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const cs = chunks(png);
    expect(cs.map((c) => c.type)).toEqual(["IHDR", "IDAT", "IEND"]);
    expect(cs.every((c) => c.crcOk)).toBe(true);
    expect([...cs[0].data]).toEqual([0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0]);
    const raw = await inflate(cs[1].data);
    expect([...raw]).toEqual([0, ...data.slice(0, 12), 0, ...data.slice(12)]);
    expect(dataUrl("image/png", png)).toBe(`data:image/png;base64,${btoa(String.fromCharCode(...png))}`);
  });
});
