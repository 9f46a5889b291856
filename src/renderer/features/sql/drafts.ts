/**
 * The text of each query view, kept for the session by its key: the view may be unmounted (another table shown,
 * a tab switched) and mounted again, and a half-written query must not be lost. Never written anywhere.
 */
const drafts = new Map<string, string>()

export const queryDraft = {
  get: (key: string): string => drafts.get(key) ?? '',
  set: (key: string, text: string): void => void drafts.set(key, text),
}
