/** Integers with 16+ digits may not fit a double; they are parsed exactly as BigInt. */
const LONG_INT = /-?\d{16,}/
const TOKENS = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![.eE\d])/g
const BIG = '\u0000bigint:'

/**
 * JSON.parse, except that integer literals too long for a double keep every digit (ids past 2^53).
 * Node 20 has no access to a number's source text in JSON.parse, so such lines are rewritten to
 * carry those literals as tagged strings first (only lines that hold a long digit run pay for it).
 */
export function parseJsonLine(text: string): unknown {
  if (!LONG_INT.test(text)) return JSON.parse(text)
  const tagged = text.replace(TOKENS, (token) => (token.startsWith('"') ? token : `"\\u0000bigint:${token}"`))
  return JSON.parse(tagged, (_key, value: unknown) => {
    if (typeof value === 'string' && value.startsWith(BIG)) {
      const digits = value.slice(BIG.length)
      const big = BigInt(digits)
      return Number.isSafeInteger(Number(big)) ? Number(big) : big
    }
    return value
  })
}
