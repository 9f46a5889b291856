import { AppError, type Result } from '../../contract'
import { harnessToken } from './transport'

const abortError = () => new DOMException('The upload was cancelled', 'AbortError')

export interface UploadProgress {
  sent: number
  total: number
}

export interface StagedUpload {
  uploadId: string
  fileName: string
  bytes: number
}

/**
 * Harness only (a browser has no file paths): stream `file` to `POST /api/upload`, which spools it
 * to a temp file and answers an `uploadId` for `import/preview` / `import/start`. XMLHttpRequest,
 * not fetch: only XHR reports upload progress.
 */
export function uploadFile(file: File, onProgress?: (progress: UploadProgress) => void, signal?: AbortSignal): Promise<StagedUpload> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError())
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/api/upload')
    xhr.setRequestHeader('content-type', 'application/octet-stream')
    xhr.setRequestHeader('x-harness-token', harnessToken())
    xhr.setRequestHeader('x-file-name', encodeURIComponent(file.name))
    xhr.responseType = 'json'
    xhr.upload.onprogress = (event) => onProgress?.({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size })
    const onAbort = () => xhr.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    const settle = () => signal?.removeEventListener('abort', onAbort)
    xhr.onabort = () => {
      settle()
      reject(abortError())
    }
    xhr.onerror = () => {
      settle()
      reject(new AppError('unavailable', `The upload of ${file.name} failed`, { hint: 'Check that the harness is still running, then drop the file again' }))
    }
    xhr.onload = () => {
      settle()
      const result = xhr.response as Result<StagedUpload> | null
      if (!result || typeof result !== 'object') {
        reject(new AppError('internal', `The upload of ${file.name} got an unreadable answer (HTTP ${xhr.status})`))
      } else if (!result.ok) reject(AppError.fromData(result.error))
      else resolve(result.value)
    }
    xhr.send(file)
  })
}
