/** What a picture to encode holds: rows of RGBA bytes, top first (an ImageData). */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray | Uint8Array;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** crc32 is the CRC a PNG chunk ends with (over its type and data). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** zlib compresses bytes (the zlib format a PNG's image data is: deflate with its header and Adler-32). */
async function zlib(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const cs = new CompressionStream("deflate");
  const out = new Response(cs.readable).arrayBuffer(); // read while writing: the stream holds little
  const w = cs.writable.getWriter();
  await w.write(bytes);
  await w.close();
  return new Uint8Array(await out);
}

/** canEncodePng tells whether this window can encode a PNG itself (CompressionStream). */
export function canEncodePng(): boolean {
  return typeof CompressionStream === "function";
}

/**
 * encodePng is the picture as a PNG file (8-bit RGBA, no filter, not interlaced): the
 * exported map's pixels exactly as the plot drew them.
 */
export async function encodePng(p: Pixels): Promise<Uint8Array> {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, p.width);
  view.setUint32(4, p.height);
  header.set([8, 6, 0, 0, 0], 8); // bit depth, colour type RGBA, deflate, no filter, no interlace
  const row = p.width * 4;
  const raw = new Uint8Array((row + 1) * p.height);
  for (let y = 0; y < p.height; y++) raw.set(p.data.subarray(y * row, (y + 1) * row), y * (row + 1) + 1); // filter byte 0: none
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", await zlib(raw)), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of parts) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** dataUrl is bytes as a data: URL of the type, in base64. */
export function dataUrl(type: string, bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${type};base64,${btoa(bin)}`;
}

/**
 * pngDataUrl is the picture as a data: URL of a PNG: encoded here where the window can
 * (CompressionStream), else by a 2-D canvas.
 */
export async function pngDataUrl(p: Pixels): Promise<string> {
  if (canEncodePng()) return dataUrl("image/png", await encodePng(p));
  const c = document.createElement("canvas");
  c.width = p.width;
  c.height = p.height;
  c.getContext("2d")?.putImageData(new ImageData(new Uint8ClampedArray(p.data), p.width, p.height), 0, 0);
  return c.toDataURL("image/png");
}
