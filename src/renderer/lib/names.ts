import { componentSchema } from '../../contract'

/** A readable message for a name the component rule refuses, or undefined when it is fine. */
export function nameProblem(name: string): string | undefined {
  if (name === '') return 'Enter a name'
  const parsed = componentSchema.safeParse(name)
  return parsed.success ? undefined : `The name ${parsed.error.issues[0]?.message ?? 'is not valid'}`
}
