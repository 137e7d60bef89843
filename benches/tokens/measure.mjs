// Measures tooltable's token estimate against a real tokenizer.
//
//   node benches/tokens/measure.mjs [--rule] [--candidates] [--distinct] [--summary] MANIFEST...
//
// Each MANIFEST is a tooltable manifest (tools.json). For every tool, the
// descriptor's compact JSON text, exactly as `tools/list` serves it, is
// counted with OpenAI's o200k_base encoding (GPT-4o and the o-series),
// which the gpt-tokenizer package carries, so this runs offline. The
// estimate compared with it is the manifest's own (`cost.tokens`, as the
// Rust build writes it, or a bare `tokens`), or with --rule the one
// `estimate` below computes.
//
//   --rule        compare `estimate(text)` below instead of the manifest's number
//   --candidates  compare every rule in CANDIDATES, one summary line each
//   --distinct    count a descriptor whose text repeats an earlier one once
//   --summary     print the summary without the per-tool table
//
// Exits 1 when a manifest cannot be read or its cost.tokens differ from
// estimate(), 2 on a usage error.
//
// samples.json beside this script is a manifest of hand-written descriptors
// unlike the committed ones: long prose, SQL and shell-style capitals,
// non-English text and a `data:` icon.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

// ---------------------------------------------------------------------------
// The estimate. `estimate_tokens` in rules/src/context.rs is this rule, and
// must give the same integer for the same text.

/** The weights of `estimate`, in hundredths of a token. */
export const WEIGHTS = Object.freeze({
  word: 112, // a word: letters with at most one capital, at its start
  longWord: 25, // each unit of a word's length past LONG_WORD (see `len` below)
  caps: 125, // two or more capitals without lower case ("JSON", "OPEN")
  digits: 100, // each started group of three digits
  spaces: 100, // two or more spaces in a row; a space before a digit
  punct: 100, // a run of punctuation
  punctExtra: 100, // each byte of such a run past PUNCT_FREE
  threeByte: 75, // a three-byte UTF-8 character (CJK, kana, Hangul, most symbols)
  fourByte: 150, // a four-byte UTF-8 character (emoji)
});
const LONG_WORD = 11;
const PUNCT_FREE = 4;

const isUpper = (c) => c >= 0x41 && c <= 0x5a;
// Every byte of a non-ASCII character counts as a lower-case letter.
const isLower = (c) => (c >= 0x61 && c <= 0x7a) || c >= 0x80;
const isLetter = (c) => isUpper(c) || isLower(c);
const isDigit = (c) => c >= 0x30 && c <= 0x39;
const SPACE = 0x20;

/**
 * The tokens `text` is estimated to take. A scan over its UTF-8 bytes, each
 * byte one of: a capital (A-Z), a lower-case letter (a-z, or any byte of a
 * non-ASCII character), a digit (0-9), a space (0x20), or punctuation (any
 * other ASCII byte). Costs add up in hundredths of a token; the result is
 * rounded half up.
 */
export function estimate(text, w = WEIGHTS) {
  const b = Buffer.from(text, 'utf8');
  const n = b.length;
  let cost = 0;
  let i = 0;
  while (i < n) {
    const c = b[i];
    if (isLetter(c)) {
      // A word: capitals, then lower case. Before a lower-case letter, the
      // last of two or more capitals starts the next word ("HTTPServer" is
      // "HTTP" and "Server"); a capital after lower case starts one too
      // ("inputSchema" is "input" and "Schema").
      let caps = 0;
      while (i < n && isUpper(b[i])) { i++; caps++; }
      if (caps >= 2 && i < n && isLower(b[i])) { i--; caps--; }
      if (caps >= 2) {
        cost += w.caps;
        continue;
      }
      let len = caps; // ASCII letters count 1, two-byte characters 2
      while (i < n && isLower(b[i])) {
        const d = b[i++];
        if (d < 0x80) len += 1;
        else if (d >= 0xf0) cost += w.fourByte; // lead byte of a 4-byte character
        else if (d >= 0xe0) cost += w.threeByte; // lead byte of a 3-byte character
        else if (d >= 0xc0) len += 2; // lead byte of a 2-byte character
        // continuation bytes (0x80..=0xBF) add nothing
      }
      cost += w.word + w.longWord * Math.max(0, len - LONG_WORD);
    } else if (isDigit(c)) {
      const start = i;
      while (i < n && isDigit(b[i])) i++;
      cost += w.digits * Math.ceil((i - start) / 3);
    } else if (c === SPACE) {
      // A single space joins what follows it, except a number.
      const start = i;
      while (i < n && b[i] === SPACE) i++;
      if (i - start >= 2) cost += w.spaces;
      if (i < n && isDigit(b[i])) cost += w.spaces;
    } else {
      const start = i;
      while (i < n && b[i] < 0x80 && !isLetter(b[i]) && !isDigit(b[i]) && b[i] !== SPACE) i++;
      const len = i - start;
      // One mark before a word joins it ("_create", "\nStores"), unless a
      // space precedes the mark.
      const joins = len === 1 && i < n && isLetter(b[i]) && !(start > 0 && b[start - 1] === SPACE);
      if (!joins) cost += w.punct + w.punctExtra * Math.max(0, len - PUNCT_FREE);
    }
  }
  return Math.floor((cost + 50) / 100);
}

/** Rules tried while calibrating `estimate`; `--candidates` compares them. */
export const CANDIDATES = [
  ['ceil(bytes / 4)', (t) => Math.ceil(Buffer.byteLength(t) / 4)],
  ['round(bytes / 3.9)', (t) => Math.round(Buffer.byteLength(t) / 3.9)],
  ['runs, each 1', (t) => estimate(t, { word: 100, longWord: 0, caps: 100, digits: 100, spaces: 100, punct: 100, punctExtra: 0, threeByte: 100, fourByte: 100 })],
  ['runs, long ones more', (t) => estimate(t, { ...WEIGHTS, word: 100, caps: 100 })],
  ['estimate: weighted runs', (t) => estimate(t)],
];

// ---------------------------------------------------------------------------
// Reading manifests.

// Each parsed object or array's compact text: the source's own number
// lexemes and key order, with whitespace between tokens left out. (serde_json
// writes 1.0 where JSON.stringify writes 1, and JavaScript objects put
// integer-like keys first, so re-serializing a parsed value is not the text
// as served.)
const TEXT = new WeakMap();

const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

function parseJson(src) {
  let i = 0;
  const fail = (what) => { throw new Error(`${what} at offset ${i}`); };
  const ws = () => { while (i < src.length && ' \t\n\r'.includes(src[i])) i++; };
  const string = () => {
    const start = i++;
    while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
    if (i++ >= src.length) fail('unterminated string');
    return src.slice(start, i);
  };
  const value = () => {
    ws();
    const c = src[i];
    if (c === '{' || c === '[') {
      const object = c === '{';
      const out = object ? {} : [];
      const parts = [];
      i++; ws();
      if (src[i] === (object ? '}' : ']')) { i++; }
      else for (;;) {
        ws();
        if (object) {
          if (src[i] !== '"') fail('expected a key');
          const key = string();
          ws();
          if (src[i++] !== ':') fail("expected ':'");
          const [v, text] = value();
          out[JSON.parse(key)] = v;
          parts.push(`${key}:${text}`);
        } else {
          const [v, text] = value();
          out.push(v);
          parts.push(text);
        }
        ws();
        const d = src[i++];
        if (d === (object ? '}' : ']')) break;
        if (d !== ',') fail(`expected ',' or '${object ? '}' : ']'}'`);
      }
      const text = object ? `{${parts.join(',')}}` : `[${parts.join(',')}]`;
      TEXT.set(out, text);
      return [out, text];
    }
    if (c === '"') { const s = string(); return [JSON.parse(s), s]; }
    SCALAR.lastIndex = i;
    const m = SCALAR.exec(src);
    if (!m) fail('expected a value');
    i += m[0].length;
    return [JSON.parse(m[0]), m[0]];
  };
  const [v] = value();
  ws();
  if (i < src.length) fail('trailing text');
  return v;
}

/** The tools of the manifest at `path`, each with its served text. */
export function readManifest(path) {
  let manifest;
  try {
    manifest = parseJson(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  if (manifest === null || typeof manifest !== 'object' || !Array.isArray(manifest.tools)) {
    throw new Error(`cannot read ${path}: not a tooltable manifest (no \`tools\` array)`);
  }
  const crate = typeof manifest.crate === 'string' ? manifest.crate : path;
  return manifest.tools.map((tool, index) => {
    const descriptor = tool?.descriptor;
    if (descriptor === null || typeof descriptor !== 'object' || Array.isArray(descriptor)) {
      throw new Error(`cannot read ${path}: /tools/${index} has no \`descriptor\` object`);
    }
    const text = TEXT.get(descriptor);
    const estimate = typeof tool.cost?.tokens === 'number' ? tool.cost.tokens
      : typeof tool.tokens === 'number' ? tool.tokens : null;
    const recordedBytes = typeof tool.cost?.bytes === 'number' ? tool.cost.bytes : null;
    return { crate, tool: String(tool.name ?? descriptor.name ?? `#${index}`), text, estimate, recordedBytes };
  });
}

// ---------------------------------------------------------------------------
// Measuring and reporting.

const count = (text) => encode(text, { disallowedSpecial: new Set() }).length;
const percent = (x) => `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(1)}%`;
const errorOf = (est, real) => (real === 0 ? 0 : ((est - real) / real) * 100);

/** Mean absolute error, the worst tool's error and the error on the sum. */
function summarize(rows, estimateOf) {
  let abs = 0, worst = null, real = 0, est = 0;
  for (const row of rows) {
    const e = estimateOf(row);
    const err = errorOf(e, row.real);
    abs += Math.abs(err);
    if (worst === null || Math.abs(err) > Math.abs(worst.err)) worst = { err, row };
    real += row.real;
    est += e;
  }
  return { mean: abs / rows.length, worst, real, est, total: errorOf(est, real) };
}

function main(argv) {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const paths = argv.filter((a) => !a.startsWith('--'));
  const known = ['--rule', '--candidates', '--distinct', '--summary'];
  const unknown = [...flags].filter((f) => !known.includes(f));
  if (unknown.length > 0 || paths.length === 0) {
    if (unknown.length > 0) console.error(`measure: unknown option ${unknown.join(', ')}`);
    console.error(`usage: node benches/tokens/measure.mjs [${known.join('] [')}] MANIFEST...`);
    return 2;
  }

  let rows = [];
  for (const path of paths) {
    try {
      rows.push(...readManifest(path));
    } catch (e) {
      console.error(`measure: ${e.message}`);
      return 1;
    }
  }
  if (flags.has('--distinct')) {
    const seen = new Set();
    rows = rows.filter((r) => !seen.has(r.text) && seen.add(r.text));
  }
  if (rows.length === 0) {
    console.error('measure: the manifests list no tools');
    return 1;
  }
  for (const row of rows) {
    row.bytes = Buffer.byteLength(row.text);
    row.real = count(row.text);
  }
  const off = rows.filter((r) => r.recordedBytes !== null && r.recordedBytes !== r.bytes);
  for (const r of off) {
    console.error(`measure: warning: ${r.crate}/${r.tool}: the manifest records ${r.recordedBytes} bytes, its descriptor's text has ${r.bytes}`);
  }
  const tools = `${rows.length} tool${rows.length === 1 ? '' : 's'}`;
  const bytes = rows.reduce((a, r) => a + r.bytes, 0);
  const real = rows.reduce((a, r) => a + r.real, 0);
  const head = `${tools}, ${bytes} bytes, ${real} tokens in o200k_base`;

  if (flags.has('--candidates')) {
    console.log(head);
    console.log('');
    const width = Math.max(...CANDIDATES.map(([name]) => name.length));
    console.log(`${'rule'.padEnd(width)}  ${'mean |error|'.padStart(12)}  ${'worst tool'.padStart(10)}  ${'on the sum'.padStart(10)}  worst`);
    for (const [name, rule] of CANDIDATES) {
      const s = summarize(rows, (r) => rule(r.text));
      console.log(`${name.padEnd(width)}  ${s.mean.toFixed(1).padStart(11)}%  ${percent(s.worst.err).padStart(10)}  ${percent(s.total).padStart(10)}  ${s.worst.row.crate}/${s.worst.row.tool}`);
    }
    return 0;
  }

  const byRule = flags.has('--rule');
  for (const r of rows) {
    r.recorded = r.estimate;
    r.estimate = byRule ? estimate(r.text) : r.estimate;
  }
  const estimated = rows.filter((r) => r.estimate !== null);
  if (!flags.has('--summary')) {
    const cw = Math.max(5, ...rows.map((r) => r.crate.length));
    const tw = Math.max(4, ...rows.map((r) => r.tool.length));
    console.log(`${'crate'.padEnd(cw)}  ${'tool'.padEnd(tw)}  ${'bytes'.padStart(7)}  ${'tokens'.padStart(7)}  ${'estimate'.padStart(8)}  ${'error'.padStart(7)}`);
    for (const r of rows) {
      const est = r.estimate === null ? '-' : String(r.estimate);
      const err = r.estimate === null ? '-' : percent(errorOf(r.estimate, r.real));
      console.log(`${r.crate.padEnd(cw)}  ${r.tool.padEnd(tw)}  ${String(r.bytes).padStart(7)}  ${String(r.real).padStart(7)}  ${est.padStart(8)}  ${err.padStart(7)}`);
    }
    console.log('');
  }
  console.log(head);
  if (estimated.length === 0) {
    console.log('no estimates in the manifests (no cost.tokens); --rule compares estimate() in this script');
    return 0;
  }
  const s = summarize(estimated, (r) => r.estimate);
  const source = byRule ? 'estimate() in this script' : 'the manifests\' cost.tokens';
  const of = estimated.length === rows.length ? '' : ` (${estimated.length} of ${rows.length} tools carry one)`;
  console.log(`estimate: ${source}${of}, ${s.est} tokens`);
  console.log(`mean |error| ${s.mean.toFixed(1)}%, worst tool ${percent(s.worst.err)} (${s.worst.row.crate}/${s.worst.row.tool}), on the sum ${percent(s.total)}`);
  const recorded = rows.filter((r) => r.recorded !== null);
  if (recorded.length > 0) {
    const agree = recorded.filter((r) => r.recorded === estimate(r.text)).length;
    console.log(`the manifests' cost.tokens equal estimate() for ${agree} of ${recorded.length} tools`);
    if (agree !== recorded.length) {
      console.error('measure: estimate() here and estimate_tokens in rules/src/context.rs disagree; they must be one rule');
      return 1;
    }
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
