import { AppError } from '../../../contract'
import { tooDeep } from './jsonDepth'
import { MAX_JSON_DEPTH, MAX_RECORD_CHARS } from '../../limits'

/** One record's JSON text and the line it starts on. */
export interface JsonRecordText {
  text: string
  line: number
}

// A record bigger than MAX_RECORD_CHARS is refused: the splitter holds one record at a time, never the file.
export { MAX_RECORD_CHARS } from '../../limits'

const QUOTE_OR_BACKSLASH = /["\\]/g

/**
 * Splits a JSON document into its records without parsing it whole: a bounded tokenizer that tracks only
 * nesting, strings and lines, so each record's text can go to JSON.parse on its own. Shapes:
 * - an array of objects: `[{…}, {…}]` — the records are its elements;
 * - an object holding an array of objects: `{"data": [{…}, …], "meta": …}` — the first such array
 *   (its key is {@link key}); other keys are skipped;
 * - otherwise a sequence of top-level objects (one object, or concatenated/pretty-printed objects).
 */
export class JsonSplitter {
  /** The key of the array the records come from (`{"data": [...]}`), once known. */
  key: string | null = null
  /** 'array' for a top-level array, 'key' for an array under a key, 'values' for top-level objects. */
  shape: 'array' | 'key' | 'values' | null = null

  private depth = 0
  private inString = false
  private escape = false
  private line = 1
  /** Depth at which records start (1: top array's elements; 2: the keyed array's elements; 0: top-level values). */
  private recordDepth = -1
  /** The record being captured: parts so far, or null outside a record. */
  private parts: string[] | null = null
  private partsChars = 0
  private recordLine = 0
  private captureFrom = 0
  /** Top object (shape not yet known): whether the next string at depth 1 is a key, and the last key read. */
  private expectKey = false
  private readingKey = false
  private keyParts: string[] = []
  private lastKey: string | null = null
  /** After `"key": [` at depth 1: the next non-blank character says whether this array holds the records. */
  private peekArray = false
  /** After the keyed array ended, the rest of the top object is skipped. */
  private done = false

  constructor(private readonly fileName: string) {}

  /** Feed a chunk of text; returns the records completed in it. */
  push(chunk: string): JsonRecordText[] {
    const out: JsonRecordText[] = []
    this.captureFrom = 0
    const n = chunk.length
    for (let i = 0; i < n; i++) {
      if (this.inString) {
        if (this.escape) {
          // The character after a backslash, maybe at the start of the next chunk.
          this.escape = false
          if (this.readingKey) this.keyParts.push(chunk[i]!)
          continue
        }
        // Jump to the next quote or backslash: strings are most of a JSON file.
        QUOTE_OR_BACKSLASH.lastIndex = i
        const m = QUOTE_OR_BACKSLASH.exec(chunk)
        const j = m ? m.index : n
        if (j > i) {
          this.countLines(chunk, i, j)
          if (this.readingKey) this.keyParts.push(chunk.slice(i, j))
          i = j
          if (j >= n) break
        }
        if (chunk.charCodeAt(i) === 0x5c) {
          this.escape = true
          if (this.readingKey) this.keyParts.push('\\')
          continue
        }
        // the closing quote
        this.inString = false
        if (this.readingKey) {
          this.readingKey = false
          try {
            this.lastKey = JSON.parse(`"${this.keyParts.join('')}"`) as string
          } catch {
            throw this.syntax('a key is not a valid JSON string')
          }
          this.keyParts = []
        }
        continue
      }
      const c = chunk.charCodeAt(i)
      if (c === 0x0a) {
        this.line++
        continue
      }
      if (c === 0x20 || c === 0x09 || c === 0x0d) continue
      if (this.recordDepth === -1 && c !== 0x7b && c !== 0x5b) throw this.syntax('the file does not start with a JSON object or array')
      if (this.peekArray) {
        this.peekArray = false
        if (c === 0x7b /* { */) {
          // `"key": [ {` — these are the records; the top object's captured text is not one.
          this.shape = 'key'
          this.key = this.lastKey
          this.recordDepth = 2
          this.parts = null
          this.partsChars = 0
        }
      }
      if (this.parts === null && this.depth === this.recordDepth && c !== 0x2c /* , */ && c !== 0x5d /* ] */ && !this.done) {
        if (c !== 0x7b) {
          throw new AppError('invalid_input', `${this.fileName} line ${this.line}: a record is not a JSON object`, {
            hint: this.shape === 'values' ? 'The file must hold JSON objects, an array of objects, or an object holding one array of objects' : 'Every element of the array must be a JSON object such as {"id": 1}',
          })
        }
        this.startRecord(i)
      }
      if (c === 0x22 /* " */) {
        this.inString = true
        if (this.shape === null && this.depth === 1 && this.expectKey) {
          this.readingKey = true
          this.expectKey = false
        }
        continue
      }
      if (c === 0x7b || c === 0x5b /* [ */) {
        if (this.depth === 0) {
          if (this.shape === null && this.recordDepth === -1) {
            if (c === 0x5b) {
              this.shape = 'array'
              this.recordDepth = 1
            } else {
              // A top object: records under a key, or itself a record (kept in case).
              this.recordDepth = 0
              this.startRecord(i)
              this.expectKey = true
            }
          } else if (this.shape !== 'values' || c === 0x5b) {
            throw this.trailing()
          }
        } else if (this.shape === null && this.depth === 1 && c === 0x5b) {
          this.peekArray = true
        }
        this.depth++
        // Counted here, as the brackets pass: the record is refused before it is held or parsed.
        if (this.depth - Math.max(this.recordDepth, 0) > MAX_JSON_DEPTH) throw tooDeep(this.fileName, `line ${this.line}`, null)
        continue
      }
      if (c === 0x7d || c === 0x5d /* } ] */) {
        this.depth--
        if (this.depth < 0) throw this.syntax('a closing bracket without an opening one')
        if (this.parts !== null && this.depth === this.recordDepth) {
          out.push(this.endRecord(chunk, i + 1))
        }
        if (this.shape === 'key' && this.depth === 1 && c === 0x5d && !this.done) {
          this.done = true
          this.recordDepth = -2
        }
        if (this.depth === 0 && this.shape === null) this.shape = 'values'
        continue
      }
      if (c === 0x2c && this.shape === null && this.depth === 1) {
        this.expectKey = true
        continue
      }
      if (this.depth === 0 && this.shape !== null) {
        if (c !== 0x2c || this.shape !== 'values') throw this.trailing()
      }
    }
    if (this.parts !== null) {
      const piece = chunk.slice(this.captureFrom)
      this.parts.push(piece)
      this.partsChars += piece.length
      if (this.partsChars > MAX_RECORD_CHARS) {
        throw new AppError('invalid_input', `${this.fileName} line ${this.recordLine}: a JSON record longer than ${MAX_RECORD_CHARS / 1024 / 1024} MB`, {
          hint: 'Records this big are not imported; split the file into smaller records (e.g. JSON lines)',
        })
      }
    }
    return out
  }

  /** Call at the end of the text: refuses a document cut short. */
  end(): void {
    if (this.inString || this.depth > 0) {
      throw new AppError('invalid_input', `${this.fileName} ends inside ${this.inString ? 'a string' : 'an object or array'} (line ${this.line})`, {
        hint: 'The file is cut short or a bracket is missing; export it again',
      })
    }
    if (this.shape === null) {
      throw new AppError('invalid_input', `${this.fileName} holds no JSON object or array`, { hint: 'Import reads an array of objects, JSON lines, or an object holding one array of objects' })
    }
  }

  private startRecord(i: number): void {
    this.parts = []
    this.partsChars = 0
    this.captureFrom = i
    this.recordLine = this.line
  }

  private endRecord(chunk: string, end: number): JsonRecordText {
    this.parts!.push(chunk.slice(this.captureFrom, end))
    const text = this.parts!.join('')
    this.parts = null
    return { text, line: this.recordLine }
  }

  private countLines(chunk: string, from: number, to: number): void {
    let k = chunk.indexOf('\n', from)
    while (k !== -1 && k < to) {
      this.line++
      k = chunk.indexOf('\n', k + 1)
    }
  }

  private trailing(): AppError {
    return new AppError('invalid_input', `${this.fileName} line ${this.line}: more JSON after the end of the ${this.shape === 'array' ? 'array' : 'object'}`, {
      hint: 'A JSON file holds one array or object (or JSON lines: one object per line); remove what follows',
    })
  }

  private syntax(what: string): AppError {
    return new AppError('invalid_input', `${this.fileName} line ${this.line}: ${what}`, { hint: 'Fix the JSON syntax at that line' })
  }
}
