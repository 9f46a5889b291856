import { AppError } from '../../../contract'
import { MAX_JSON_DEPTH } from '../../limits'

/**
 * How deep `text` (one JSON value) nests, when deeper than `max`; else null. No recursion: a counter over the
 * brackets outside strings. Most records are skipped at once: nesting `max` deep takes 2·max characters and max
 * opening brackets, counted with indexOf.
 */
export function depthOver(text: string, max = MAX_JSON_DEPTH): number | null {
  if (text.length <= 2 * max) return null
  let openers = 0
  for (let i = text.indexOf('['); i !== -1 && openers <= max; i = text.indexOf('[', i + 1)) openers++
  for (let i = text.indexOf('{'); i !== -1 && openers <= max; i = text.indexOf('{', i + 1)) openers++
  if (openers <= max) return null
  let depth = 0
  let deepest = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22 /* " */) {
      // Skip the string: to the next quote not escaped.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (d === 0x5c /* \ */) i++
        else if (d === 0x22) break
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest > max ? deepest : null
}

/** The refusal of a record nested deeper than {@link MAX_JSON_DEPTH}; `where` is e.g. `line 12`. */
export function tooDeep(fileName: string, where: string, depth: number | null): AppError {
  return new AppError('unsupported', `${fileName} ${where}: a record nested ${depth === null ? `more than ${MAX_JSON_DEPTH.toLocaleString('en')}` : depth.toLocaleString('en')} levels deep; import reads JSON nested at most ${MAX_JSON_DEPTH.toLocaleString('en')} levels`, {
    hint: 'Flatten the records (e.g. with jq), or keep the deep part as a JSON string, and import again',
  })
}
