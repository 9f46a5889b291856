let counter = 0

/** A fresh id for a request that `requests/cancel` may stop. */
export function newRequestId(): string {
  counter += 1
  return `a${Date.now().toString(36)}-${counter}`
}
