#!/usr/bin/env node
// StyLua for the plugin's Lua, through StyLua's own WASM build (npm
// @johnnymorganz/stylua: the formatter, not a wrapper that downloads a
// binary). It reads the StyLua config (editors/nvim/.stylua.toml) and
// formats every .lua file under the paths given.
//
//   node stylua.js [--check] [--config FILE] PATH...
//
// --check writes nothing: it lists each file StyLua would change with the
// first lines that differ, and exits 1 when there is one. Without it the
// files are rewritten. A file StyLua cannot parse exits 2.
'use strict';

const fs = require('fs');
const path = require('path');
const stylua = require('@johnnymorganz/stylua');

// The config keys StyLua's CLI reads from stylua.toml, and the enum each
// string value names (numbers and booleans are taken as they are).
const enums = {
  indent_type: stylua.IndentType,
  line_endings: stylua.LineEndings,
  quote_style: stylua.QuoteStyle,
  call_parentheses: stylua.CallParenType,
  collapse_simple_statement: stylua.CollapseSimpleStatement,
  space_after_function_names: stylua.SpaceAfterFunctionNames,
  block_newline_gaps: stylua.BlockNewlineGaps,
  syntax: stylua.LuaVersion,
};
const plain = new Set(['column_width', 'indent_width', 'no_call_parentheses']);

// parseToml reads the flat `key = value` lines StyLua's config uses (and a
// [sort_requires] table with `enabled`); anything else is an error, so a
// misspelt key cannot be ignored silently.
function parseToml(text, file) {
  const out = {};
  let table = '';
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') {
      return;
    }
    const header = line.match(/^\[([a-z_]+)\]$/);
    if (header) {
      table = header[1];
      return;
    }
    const kv = line.match(/^([a-z_]+)\s*=\s*(.+)$/);
    if (!kv) {
      throw new Error(`${file}:${i + 1}: cannot read ${JSON.stringify(raw)}`);
    }
    let value = kv[2].trim();
    if (/^"[^"]*"$/.test(value) || /^'[^']*'$/.test(value)) {
      value = value.slice(1, -1);
    } else if (value === 'true' || value === 'false') {
      value = value === 'true';
    } else if (/^\d+$/.test(value)) {
      value = Number(value);
    } else {
      throw new Error(`${file}:${i + 1}: value ${value} is no string, number or boolean`);
    }
    out[table ? `${table}.${kv[1]}` : kv[1]] = value;
  });
  return out;
}

// makeConfig builds a fresh Config (formatCode takes ownership of it).
function makeConfig(settings, file) {
  const config = stylua.Config.new();
  for (const [key, value] of Object.entries(settings)) {
    if (key === 'sort_requires.enabled') {
      config.sort_requires = stylua.SortRequiresConfig.new().set_enabled(value);
    } else if (enums[key]) {
      if (!(value in enums[key])) {
        throw new Error(`${file}: ${key} = ${value} is none of ${Object.keys(enums[key]).filter((k) => isNaN(k)).join(', ')}`);
      }
      config[key] = enums[key][value];
    } else if (plain.has(key)) {
      config[key] = value;
    } else {
      throw new Error(`${file}: unknown key ${key}`);
    }
  }
  return config;
}

// luaFiles lists the .lua files under p (a file or a directory), sorted,
// leaving node_modules out.
function luaFiles(p) {
  if (!fs.statSync(p).isDirectory()) {
    return [p];
  }
  return fs
    .readdirSync(p, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules' && !e.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const full = path.join(p, e.name);
      if (e.isDirectory()) {
        return luaFiles(full);
      }
      return e.name.endsWith('.lua') ? [full] : [];
    });
}

// firstDifference shows where two texts part: the first differing line of
// each, with its number.
function firstDifference(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) {
    i++;
  }
  return `  line ${i + 1}\n  - ${a[i] === undefined ? '(end)' : a[i]}\n  + ${b[i] === undefined ? '(end)' : b[i]}`;
}

function main(argv) {
  let check = false;
  let configFile = path.join(__dirname, '..', '.stylua.toml');
  const paths = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--check') {
      check = true;
    } else if (argv[i] === '--config') {
      configFile = argv[++i];
    } else {
      paths.push(argv[i]);
    }
  }
  if (paths.length === 0) {
    console.error('usage: node stylua.js [--check] [--config FILE] PATH...');
    return 2;
  }
  const settings = parseToml(fs.readFileSync(configFile, 'utf8'), configFile);
  makeConfig(settings, configFile).free(); // reports a bad config before any file
  let changed = 0;
  let failed = 0;
  for (const file of paths.flatMap(luaFiles)) {
    const before = fs.readFileSync(file, 'utf8');
    let after;
    try {
      after = stylua.formatCode(before, makeConfig(settings, configFile), undefined, stylua.OutputVerification.Full);
    } catch (err) {
      console.error(`${file}: ${err}`);
      failed++;
      continue;
    }
    if (after === before) {
      continue;
    }
    changed++;
    if (check) {
      console.log(`${file}: not formatted\n${firstDifference(before, after)}`);
    } else {
      fs.writeFileSync(file, after);
      console.log(`formatted ${file}`);
    }
  }
  if (failed > 0) {
    return 2;
  }
  return check && changed > 0 ? 1 : 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  console.error(`stylua.js: ${err.message}`);
  process.exitCode = 2;
}
