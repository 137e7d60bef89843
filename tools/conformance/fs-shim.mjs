// The conformance suite imports `globSync` from `fs`, which Node.js adds in
// version 22; this machine has Node.js 20. This module is `fs` plus a
// `globSync` enough for the suite's one use: finding files by name under a
// directory (`**/NAME`, `NAME`).
import * as fs from 'node:fs';
import * as path from 'node:path';

export * from 'node:fs';
export default fs;

export function globSync(pattern, options = {}) {
  const cwd = options.cwd ?? process.cwd();
  const wanted = pattern.replace(/^\*\*\//, '');
  if (wanted.includes('*')) {
    throw new Error(`fs-shim: globSync supports only "**/NAME" and "NAME", not ${pattern}`);
  }
  const deep = pattern.startsWith('**/');
  const entries = deep ? fs.readdirSync(cwd, { recursive: true }) : fs.readdirSync(cwd);
  return entries.map(String).filter((entry) => path.basename(entry) === wanted && (deep || entry === wanted));
}
