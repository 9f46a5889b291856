import { expect } from 'vitest'
import { AppError } from '../../src/contract'

/** The AppError a promise rejects with (fails the test if it resolves or throws something else). */
export async function appError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  return error as AppError
}
