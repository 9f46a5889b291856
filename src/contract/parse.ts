import type { z } from 'zod'
import { AppError } from './result'

/** Parse `value` or throw an `invalid_input` AppError listing `path: message` for each issue. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what = 'input'): z.infer<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : what
    return `${path}: ${issue.message}`
  })
  throw new AppError('invalid_input', `Invalid ${what}: ${issues.join('; ')}`)
}
