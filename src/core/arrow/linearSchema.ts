import { Field, Schema } from 'apache-arrow'

/**
 * apache-arrow (18, and its main branch today) finds each assigned field with `findIndex` in `Schema.assign`, and
 * every `new RecordBatch(schema, data)` calls it (ensureSameLengthData) — slices, transforms, IPC writes: building one
 * batch costs the square of the column count (20,000 columns: 0.5 s per batch; a preview makes four). This replaces
 * it with the same result found through a Map: the first field of a name is replaced (its metadata merged), fields of
 * new names are appended, schema metadata and dictionaries merged as before.
 */
let installed = false

export function linearSchemaAssign(): void {
  if (installed) return
  installed = true
  const proto = Schema.prototype as unknown as { assign: (...args: unknown[]) => Schema }
  proto.assign = function assign(this: Schema, ...args: unknown[]): Schema {
    const first = args[0]
    const other = first instanceof Schema ? first : new Schema((Array.isArray(first) ? first : args) as Field[])
    const fields = [...this.fields]
    const at = new Map<string, number>()
    fields.forEach((f, i) => {
      if (!at.has(f.name)) at.set(f.name, i)
    })
    const added: Field[] = []
    for (const f2 of other.fields) {
      const i = at.get(f2.name)
      if (i === undefined) added.push(f2)
      else fields[i] = f2.clone({ metadata: new Map([...fields[i]!.metadata, ...f2.metadata]) })
    }
    const metadata = new Map([...this.metadata, ...other.metadata])
    // The new fields' dictionaries, as apache-arrow's own constructor gathers them.
    const dictionaries = new Map([...this.dictionaries, ...new Schema(added).dictionaries])
    return new Schema([...fields, ...added], metadata, dictionaries)
  }
}
