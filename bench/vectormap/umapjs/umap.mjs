// umap.mjs: the peer of the map's Go UMAP (issue 22, `make bench` via bench/vectormap): umap-js
// lays out the vectors bench/vectormap wrote (little-endian float32s, n x dim) with the same
// settings the app uses (15 neighbours, 2 dimensions, 200 rounds above 2,000 points), and
// writes the layout (float32 x, y per point) beside them. It prints one JSON line: the time
// umap-js took, from the vectors in memory to the finished layout.
import { readFileSync, writeFileSync } from "node:fs";
import { UMAP } from "umap-js";

const [vectorsPath, n, dim, outPath] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), process.argv[5]];
const buf = readFileSync(vectorsPath);
const flat = new Float32Array(buf.buffer, buf.byteOffset, n * dim);
const data = Array.from({ length: n }, (_, i) => Array.from(flat.subarray(i * dim, (i + 1) * dim)));

// a seeded generator (mulberry32), so each run lays out the same way
let seed = 1;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const start = performance.now();
const layout = new UMAP({ nComponents: 2, nNeighbors: 15, nEpochs: n > 2000 ? 200 : 500, random }).fit(data);
const ms = performance.now() - start;
const out = new Float32Array(n * 2);
layout.forEach(([x, y], i) => {
  out[2 * i] = x;
  out[2 * i + 1] = y;
});
writeFileSync(outPath, Buffer.from(out.buffer));
console.log(JSON.stringify({ ms }));
