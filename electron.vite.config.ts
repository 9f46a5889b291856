import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'

/**
 * The dev server (`npm run dev`) needs an inline React-refresh preamble, Vite's injected styles and a
 * websocket for hot reload, which the strict CSP of index.html forbids. Relax it for `serve` only;
 * built apps (`npm start`, packages) keep the strict policy.
 */
function devServerCsp(): Plugin {
  return {
    name: 'dev-server-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* http://localhost:*"),
  }
}

// Main and preload are built as CommonJS (package.json has no "type": "module") so that main and
// @lancedb/lancedb share apache-arrow's CJS copy (instanceof works; see the README's notes).
export default defineConfig({
  // Main (the window, menus, dialogs, keychain), the catalog host it starts as a utility process (src/host), and the
  // reader process the host forks for each file it reads (src/core/import/reader).
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          host: resolve(__dirname, 'src/host/index.ts'),
          importReader: resolve(__dirname, 'src/core/import/reader/child.ts'),
        },
      },
    },
  },
  preload: { build: { rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } } } },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react(), devServerCsp()],
    build: {
      // Smaller code is less to parse and compile on a cold first open.
      minify: process.env.RENDERER_MINIFY !== '0', // RENDERER_MINIFY=0: readable names in CPU profiles (BENCH_UI_PROFILE)
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        // V8's explicit compile hint: compile the entry chunk's functions eagerly, off the main thread while
        // the script streams in, instead of lazily on the first table click (the cold open's largest cost).
        // Chunks loaded later (dialogs, sheets) stay lazily compiled. The bundler may move the code the entry
        // shares with them (React, apache-arrow, zod, the contract, the api client) into a common chunk that the
        // entry imports at once (and index.html preloads): it gets the hint too.
        output: { postBanner: (chunk) => (chunk.isEntry || !chunk.isDynamicEntry ? '//# allFunctionsCalledOnLoad' : '') },
      },
    },
  },
})
