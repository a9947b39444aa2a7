// SPDX-License-Identifier: MIT
// node run.js MODULE.wasm MILLIS: instantiate module.wat's module and call
// sum (about two thirds of the time), dispatch and, now and then, cold
// until MILLIS ms have passed. Prints a checksum so nothing is dead code.
'use strict';
const fs = require('fs');
const [file, ms] = [process.argv[2], Number(process.argv[3] || 1000)];
const mod = new WebAssembly.Module(fs.readFileSync(file));
let ticks = 0;
const inst = new WebAssembly.Instance(mod, {
  env: { log: () => { ticks++; }, tick: () => ticks },
});
const { sum, dispatch, cold } = inst.exports;
let check = 0;
const end = Date.now() + ms;
for (let round = 0; Date.now() < end; round++) {
  check ^= sum(200000);
  check ^= sum(200000);
  check ^= dispatch(50000);
  if (round % 16 === 0) check ^= cold(round);
}
console.log(`checksum ${check >>> 0}`);
