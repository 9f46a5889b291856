// Preloaded into Electron's installer by install-electron.mjs. The installer prints only `err.stack`, and
// undici's `TypeError: fetch failed` keeps the real reason (DNS, refused, TLS, proxy) in `err.cause`, which a
// stack never shows. Print each cause on a marker line so the wrapper can say why the download failed.
'use strict'

const describe = (cause) => {
  if (cause instanceof Error) {
    const code = typeof cause.code === 'string' && !cause.message.includes(cause.code) ? `${cause.code}: ` : ''
    return `${code}${cause.message}`
  }
  return String(cause)
}

const original = Error.prepareStackTrace
Error.prepareStackTrace = (error, frames) => {
  const stack = original ? original(error, frames) : [String(error), ...frames.map((frame) => `    at ${frame}`)].join('\n')
  const lines = []
  for (let cause = error && error.cause, depth = 0; cause !== undefined && cause !== null && depth < 5; depth++) {
    lines.push(`[install-electron cause] ${describe(cause)}`)
    cause = cause instanceof Error ? cause.cause : undefined
  }
  return lines.length > 0 ? `${stack}\n${lines.join('\n')}` : stack
}
