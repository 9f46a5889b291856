import { AppError, userColumnsOnly } from '../../contract'

/**
 * Lance's "invalid input" errors (a predicate that does not parse, an unknown column in it, a wrong vector,
 * a text search without an FTS index) become `invalid_input` carrying Lance's own sentence, without the
 * Rust source paths. Anything else is left for the namespace's own error mapping.
 */
export function queryInputError(error: unknown): AppError | undefined {
  if (error instanceof AppError || !(error instanceof Error)) return undefined
  const text = error.message
  const match = /(?:Invalid user input|Invalid input|InvalidInput)[,:]\s*([\s\S]*)/.exec(text)
  const noIndex = /no (?:inverted|FTS) index|Cannot perform full text search unless an INVERTED index/i.test(text)
  if (!match && !noIndex) return undefined
  const sentence = lanceSentence(match ? match[1]! : text)
  return new AppError('invalid_input', noIndex ? `Full-text search needs an FTS index: ${sentence}` : sentence, { detail: cleanPaths(text).slice(0, 2000), cause: error })
}

/** The first sentence of a lance message, without repeats ("Caused by: …") and source paths. */
function lanceSentence(text: string): string {
  // Only the user's columns in Lance's lists, and its suggestion named as an identifier (backticks).
  const first = userColumnsOnly(cleanPaths(text).split(/\s{2}Caused by:|\n/)[0]!.replace(/^(Invalid user input|lance error):\s*/i, '').trim())
  return first.length > 500 ? `${first.slice(0, 500)}…` : first
}

function cleanPaths(text: string): string {
  return text.replace(/,?\s*\/(usr\/local\/cargo|rustc)\/[^\s,]+/g, '')
}
