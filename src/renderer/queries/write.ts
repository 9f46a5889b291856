import { mutationOptions } from '@tanstack/react-query'
import type { Input, Output } from '../../contract'
import type { WriteMethod } from '../../contract/methods'
import { call } from '../api'
import { staleAfter, type StaleRule } from './invalidate'

/**
 * The mutation of one contract write: calls it and, once it succeeded, applies its staleness rule (`staleAfter` in
 * invalidate.ts). The rule is not awaited: the dialog closes on the answer and the views read again behind it, as
 * they always did. Each feature names its writes in its `mutations.ts`; `useMutation` then holds the busy flag and
 * the error.
 */
export function writeOptions<M extends WriteMethod>(method: M) {
  const rule = staleAfter[method] as StaleRule<M>
  return mutationOptions<Output<M>, Error, Input<M>>({
    mutationKey: ['write', method],
    mutationFn: (input) => call(method, input),
    onSuccess: (output, input, _onMutate, { client }) => {
      void rule(client, input, output)
    },
  })
}
