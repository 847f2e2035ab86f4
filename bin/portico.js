#!/usr/bin/env node
// The `portico` command; the compiled CLI lives in dist (built by `npm ci` through `prepare`).
import '../dist/src/cli/portico.js';
