import type { Input, Method, Output } from '../contract'

/** An answer for every contract method. */
export type Handlers = { [M in Method]: (input: Input<M>) => Promise<Output<M>> }

type AllOf<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never

/**
 * The parts' handlers as one map, each method answered by exactly one part: a second answer would silently win or
 * lose by the order of the parts, so it stops the service at start. The type says every method is answered.
 */
export function joinHandlers<P extends object[]>(...parts: P): AllOf<P[number]> {
  const joined: Record<string, unknown> = {}
  for (const part of parts) {
    for (const [method, handler] of Object.entries(part)) {
      if (method in joined) throw new Error(`Two parts of the service answer ${method}`)
      joined[method] = handler
    }
  }
  return joined as AllOf<P[number]>
}
