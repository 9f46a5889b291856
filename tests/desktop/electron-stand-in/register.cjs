// Loaded with `node --require` before out/main/index.js in the desktop rig: `require('electron')` in the main
// bundle resolves to the stand-in next to this file instead of the electron npm package (which would only print
// the binary's path). Test code only; never shipped.
'use strict'
const Module = require('node:module')
const { join } = require('node:path')

const standIn = join(__dirname, 'electron.cjs')
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  if (request === 'electron' || request === 'electron/main') return standIn
  return resolve.call(this, request, ...rest)
}
