import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { exportJobIdSchema, fail } from '../../contract'
import { toAppError } from '../../core'
import type { HarnessRoute } from '../context'
import { tokensMatch } from '../security'

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
  arrow: 'application/vnd.apache.arrow.file',
  parquet: 'application/vnd.apache.parquet',
}

/**
 * `GET /api/exports/<jobId>?token=…`: the file of a finished download export (`export/start` without a
 * `path`), streamed as an attachment once and then deleted. A browser follows a link to download, and
 * a link cannot send headers, so the token may come in the query (compared in constant time).
 */
export const exportRoutes: HarnessRoute = (app, ctx) => {
  app.get<{ Params: { jobId: string }; Querystring: { token?: string } }>('/api/exports/:jobId', async (request, reply) => {
    if (!tokensMatch(ctx.token, request.query.token)) ctx.requireToken(request.headers)
    reply.header('cache-control', 'no-store')
    const parsed = exportJobIdSchema.safeParse(request.params.jobId)
    if (!parsed.success) return reply.code(400).send(fail({ code: 'invalid_input', message: 'Not an export job id' }))
    let download
    try {
      download = ctx.service.exports.takeDownload(parsed.data)
    } catch (error) {
      const e = toAppError(error)
      return reply.code(e.code === 'not_found' ? 404 : 409).send(fail(e.toData()))
    }
    const { size } = await stat(download.path)
    const extension = download.fileName.split('.').pop() ?? ''
    const stream = createReadStream(download.path)
    // Delete the file once it has been sent (or the browser went away).
    reply.raw.once('close', () => void download.release())
    return reply
      .type(CONTENT_TYPES[extension] ?? 'application/octet-stream')
      .header('content-length', String(size))
      .header('content-disposition', `attachment; filename="${download.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(download.fileName)}`)
      .send(stream)
  })
}
