/**
 * Vite bundles the stylesheets a component imports for its side effect (`import './map.css'`). TypeScript checks
 * that such an import resolves (7.0 does by default), and a stylesheet has no types: this says it is a module.
 */
declare module '*.css'
