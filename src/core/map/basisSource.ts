import { FIT_BASIS_HELPERS, fitBasis } from './pca'

/**
 * The k-d PCA a UMAP map finds neighbours in, as JavaScript source for the UMAP worker (umapWorker.ts), so the fit
 * runs off the main thread. It is pca.ts's own `fitBasis` and the helpers it calls, as their source text: the worker
 * runs from a string (`eval: true`, no second entry file in the bundle), so it gets the code rather than importing
 * it — the same code, not a copy kept by hand (tests/core/map/pca.test.ts runs this text and checks it answers as
 * pca.ts does, to the bit).
 *
 * Two things keep a function's text runnable on its own: pca.ts's `fitBasis` uses only its helpers and the
 * language's globals; and the runners that load core from its sources (tsx, esbuild) may wrap inner functions in a
 * `__name(fn, "name")` helper the worker does not have, so the text brings a stand-in that only hands `fn` back.
 * A bundler that renames a function renames it at its declaration and at its calls alike; the worker calls
 * `fitBasis` by the name given here, whatever the bundle named it.
 *
 * `fitBasis(sample, rows, d, k, onStep)` in the worker: the top `k` principal axes of the first `rows` rows of
 * `sample`, a block of k + 4, {@link BASIS_PASSES} passes, then Rayleigh–Ritz; `onStep(i)` after each pass and after
 * the rotation. Returns `{ mean, axes, explained }`: mean and axes (row-major, k × d) as Float32, `explained` the
 * share of the sample's variance along the first two.
 */
export const BASIS_PASSES = 6
/** Steps `fitBasis` reports: the passes and the Rayleigh–Ritz rotation. */
export const BASIS_STEPS = BASIS_PASSES + 1
/** The seed of the worker's start block (not fitComponents': the two fits are tuned apart, the code is one). */
export const BASIS_SEED = 0x2545f491

export const BASIS_SOURCE = `
function __name(fn) { return fn }
${FIT_BASIS_HELPERS.map((helper) => helper.toString()).join('\n')}
const fitBasisOf = ${fitBasis.toString()}
function fitBasis(sample, rows, d, k, onStep) {
  const fitted = fitBasisOf(sample, rows, d, k, { block: k + 4, passes: ${BASIS_PASSES}, seed: ${BASIS_SEED}, onStep, axesArray: Float32Array })
  return { mean: Float32Array.from(fitted.mean), axes: fitted.axes, explained: fitted.explained }
}
`
