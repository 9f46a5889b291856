import { z } from 'zod'

/**
 * The component rule of the catalog specification: a non-empty name made of letters, digits,
 * `_`, `-` and `.`. `.` and `..` are refused as whole components: they are allowed characters,
 * but as a directory component they would walk the filesystem (path traversal).
 */
export const COMPONENT_PATTERN = /^[A-Za-z0-9_.-]+$/

/** Longest component we accept; far above real names, far below what a path or URL can carry. */
export const MAX_COMPONENT_LENGTH = 255

/** Why `value` is not a valid component, or `null` when it is one. */
export function componentProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string'
  if (value.length === 0) return 'must not be empty'
  if (value.length > MAX_COMPONENT_LENGTH) return `must be at most ${MAX_COMPONENT_LENGTH} characters`
  if (value === '.' || value === '..') return `"${value}" is not allowed as a name`
  if (!COMPONENT_PATTERN.test(value)) {
    const bad = [...value].find((c) => !/[A-Za-z0-9_.-]/.test(c)) ?? ''
    const shown = bad.trim() === '' ? `whitespace (U+${bad.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')})` : `"${bad}"`
    return `contains ${shown}; only letters, digits, "_", "-" and "." are allowed`
  }
  return null
}

export function isValidComponent(value: unknown): value is string {
  return componentProblem(value) === null
}

export const componentSchema = z.string().superRefine((value, ctx) => {
  const problem = componentProblem(value)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

/** A namespace path: components, outermost first. `[]` is the root namespace. */
export const namespacePathSchema = z.array(componentSchema).max(64)

export type NamespacePath = readonly string[]
