// Bundles src/ into ../assets/app.js and ../assets/app.css. The output is deterministic (same
// lockfile and sources, same bytes): .ci/run rebuilds it and fails when it differs from the
// committed files.
import * as esbuild from 'esbuild';

await esbuild.build({
  entryPoints: ['src/main.tsx'],
  outfile: '../assets/app.js',
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  charset: 'utf8',
  logLevel: 'warning',
});
await esbuild.build({
  entryPoints: ['src/app.css'],
  outfile: '../assets/app.css',
  bundle: true,
  minify: true,
  charset: 'utf8',
  logLevel: 'warning',
});
