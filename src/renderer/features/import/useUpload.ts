import { useEffect, useRef, useState } from 'react'
import type { AppErrorData, ImportSource } from '../../../contract'
import { call, isAbort, uploadFile } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import type { PendingFile } from './dropped'

export type UploadState = { phase: 'uploading'; sent: number; total: number } | { phase: 'ready'; source: ImportSource } | { phase: 'failed'; error: AppErrorData }

/**
 * Where the sheet's file is read from: its path (Electron), or — in the harness, where a browser has no paths —
 * an upload staged once with progress. The staged copy is discarded when the sheet closes, unless a job took it
 * (`taken()`, called once `import/start` answered).
 */
export function useUpload(item: PendingFile): { upload: UploadState; source: ImportSource | null; taken(): void } {
  const [upload, setUpload] = useState<UploadState>(() => (item.path ? { phase: 'ready', source: { path: item.path } } : { phase: 'uploading', sent: 0, total: item.bytes }))
  const started = useRef(false)
  const uploadRef = useRef<string | null>(null)

  useEffect(() => {
    if (item.path || !item.file) return
    const controller = new AbortController()
    uploadFile(item.file, ({ sent, total }) => setUpload({ phase: 'uploading', sent, total }), controller.signal)
      .then((staged) => {
        uploadRef.current = staged.uploadId
        setUpload({ phase: 'ready', source: { uploadId: staged.uploadId } })
      })
      .catch((error: unknown) => {
        if (!isAbort(error)) setUpload({ phase: 'failed', error: errorData(error) })
      })
    return () => {
      controller.abort()
      const uploadId = uploadRef.current
      if (uploadId && !started.current) void call('import/discardUpload', { uploadId }).catch(() => undefined)
    }
  }, [item])

  return {
    upload,
    source: upload.phase === 'ready' ? upload.source : null,
    taken: () => {
      started.current = true
    },
  }
}
