import {
  Binary,
  DataType,
  Bool,
  Date_,
  Decimal,
  Dictionary,
  Duration,
  Field,
  FixedSizeBinary,
  FixedSizeList,
  Float,
  Int,
  LargeBinary,
  LargeUtf8,
  List,
  Null,
  Schema,
  Struct,
  Time,
  Timestamp,
  Utf8,
} from 'apache-arrow'
import { normalisedZone, withOriginalZone, zoneNote } from '../zones'
import { fbSchema, TYPE_BINARY_VIEW, TYPE_LARGE_LIST_VIEW, TYPE_LIST_VIEW, TYPE_UTF8_VIEW, type FbField, type FbSchema } from './fb'

/**
 * How one column's buffers are turned into what apache-arrow 18 (and Lance) read. `plain` copies
 * `buffers` buffers; the others rewrite them (see batch.ts).
 */
export type Layout =
  | { kind: 'plain'; buffers: number; children: Layout[] }
  | { kind: 'view'; children: [] }
  | { kind: 'large-list'; children: [Layout] }
  | { kind: 'list-view'; large: boolean; children: [Layout] }

export interface Conversion {
  column: string
  from: string
  to: string
  /** What the conversion keeps, in words (a normalised zone: where the file's zone went). */
  note?: string
}

export interface DecodedSchema {
  schema: Schema
  layouts: Layout[]
  /** Dictionary id → the value type's field (converted) and layout. */
  dictionaries: Map<number, { field: Field; layout: Layout }>
  conversions: Conversion[]
  /** Columns no conversion can store: "column `d` of type Duration[ns]" style descriptions. */
  unsupported: { column: string; type: string }[]
}

const T = fbSchema.Type
const UNITS = ['s', 'ms', 'µs', 'ns']

/** Decode an IPC Schema flatbuffer into apache-arrow 18 types, mapping newer types to their plain forms. */
export function decodeSchema(fb: FbSchema): DecodedSchema {
  const out: DecodedSchema = { schema: new Schema([]), layouts: [], dictionaries: new Map(), conversions: [], unsupported: [] }
  const fields: Field[] = []
  for (let i = 0; i < fb.fieldsLength(); i++) {
    const f = fb.fields(i)
    if (!f) throw new Error(`schema field ${i + 1} is missing`)
    const zones: string[] = []
    const { field, layout, source } = decodeField(f, f.name() ?? '', out, 0, zones)
    // One entry per column, with its whole source and written types (nested views included).
    const written = DataType.isDictionary(field.type) ? field.type.dictionary : field.type
    if (source !== readable(written)) {
      const note = zones.length > 0 ? zoneNote([...new Set(zones)].join(', ')) : undefined
      out.conversions.push({ column: field.name, from: source, to: readable(written), ...(note ? { note } : {}) })
    }
    fields.push(field)
    out.layouts.push(layout)
  }
  out.schema = new Schema(fields, metadata(fb))
  return out
}

function metadata(fb: { customMetadataLength(): number; customMetadata(i: number): { key(): string | null; value(): string | null } | null }): Map<string, string> {
  const map = new Map<string, string>()
  for (let i = 0; i < fb.customMetadataLength(); i++) {
    const kv = fb.customMetadata(i)
    if (kv?.key()) map.set(kv.key()!, kv.value() ?? '')
  }
  return map
}

interface Decoded {
  field: Field
  layout: Layout
  /** The file's type, readable (`LargeList<Utf8View>`), before any conversion. */
  source: string
}

/** `zones`: the zones normalised to UTC in this column (nested fields included), for the conversion's note. */
function decodeField(f: FbField, path: string, out: DecodedSchema, depth: number, zones: string[]): Decoded {
  if (depth > 64) throw new Error('its schema nests deeper than 64 levels')
  const name = f.name() ?? ''
  const children: Decoded[] = []
  for (let i = 0; i < f.childrenLength(); i++) {
    const c = f.children(i)
    if (!c) throw new Error(`a child of column "${path}" is missing`)
    children.push(decodeField(c, `${path}.${c.name() ?? ''}`, out, depth + 1, zones))
  }
  const { type, layout, source: typeSource, zone } = decodeType(f, path, children, out)
  if (zone !== undefined) zones.push(zone)
  let source = typeSource ?? readable(type)
  let fieldType: DataType = type
  const encoding = f.dictionary()
  let fieldLayout = layout
  if (encoding) {
    const id = Number(encoding.id())
    const index = encoding.indexType()
    const indices = index ? new Int(index.isSigned(), index.bitWidth() as 8 | 16 | 32 | 64) : new Int(true, 32)
    fieldType = new Dictionary(type, indices as never, id, encoding.isOrdered())
    out.dictionaries.set(id, { field: new Field(name, type, true), layout })
    fieldLayout = { kind: 'plain', buffers: 2, children: [] }
    source = `Dictionary<${source}>`
  }
  const field = new Field(name, fieldType, f.nullable(), metadata(f))
  return { field: zone !== undefined ? withOriginalZone(field, zone) : field, layout: fieldLayout, source }
}

const plain = (buffers: number, children: Layout[] = []): Layout => ({ kind: 'plain', buffers, children })

function decodeType(
  f: FbField,
  path: string,
  children: Decoded[],
  out: DecodedSchema,
): { type: DataType; layout: Layout; source?: string; zone?: string } {
  const t = f.typeType() as number
  const kids = children.map((c) => c.layout)
  const sources = children.map((c) => c.source)
  const child = (): Field => {
    const c = children[0]
    if (!c) throw new Error(`column "${path}" is a list without its value field`)
    return c.field
  }
  const unsupported = (type: string): { type: DataType; layout: Layout } => {
    out.unsupported.push({ column: path, type })
    return { type: new Null(), layout: plain(0, kids) }
  }
  switch (t) {
    case T.Null:
      return { type: new Null(), layout: plain(0) }
    case T.Int: {
      const x = f.type(new fbSchema.Int()) as InstanceType<typeof fbSchema.Int>
      return { type: new Int(x.isSigned(), x.bitWidth() as 8 | 16 | 32 | 64), layout: plain(2) }
    }
    case T.FloatingPoint: {
      const x = f.type(new fbSchema.FloatingPoint()) as InstanceType<typeof fbSchema.FloatingPoint>
      return { type: new Float(x.precision() as number), layout: plain(2) }
    }
    case T.Binary:
      return { type: new Binary(), layout: plain(3) }
    case T.Utf8:
      return { type: new Utf8(), layout: plain(3) }
    case T.LargeBinary:
      return { type: new LargeBinary(), layout: plain(3) }
    case T.LargeUtf8:
      return { type: new LargeUtf8(), layout: plain(3) }
    case TYPE_UTF8_VIEW:
      return { type: new Utf8(), layout: { kind: 'view', children: [] }, source: 'Utf8View' }
    case TYPE_BINARY_VIEW:
      return { type: new Binary(), layout: { kind: 'view', children: [] }, source: 'BinaryView' }
    case T.Bool:
      return { type: new Bool(), layout: plain(2) }
    case T.Decimal: {
      const x = f.type(new fbSchema.Decimal()) as InstanceType<typeof fbSchema.Decimal>
      const bits = x.bitWidth()
      if (bits !== 128 && bits !== 256) return unsupported(`Decimal${bits}`)
      return { type: new Decimal(x.scale(), x.precision(), bits), layout: plain(2) }
    }
    case T.Date: {
      const x = f.type(new fbSchema.Date()) as InstanceType<typeof fbSchema.Date>
      return { type: new Date_(x.unit() as number), layout: plain(2) }
    }
    case T.Time: {
      const x = f.type(new fbSchema.Time()) as InstanceType<typeof fbSchema.Time>
      return { type: new Time(x.unit() as number, x.bitWidth() as 32 | 64), layout: plain(2) }
    }
    case T.Timestamp: {
      const x = f.type(new fbSchema.Timestamp()) as InstanceType<typeof fbSchema.Timestamp>
      const type = new Timestamp(x.unit() as number, x.timezone())
      // A zone Lance or the app's readers cannot take becomes UTC: the values are the same instants (an Arrow
      // timestamp counts from the epoch in UTC whatever its zone), so only the type changes, not the buffers.
      const utc = normalisedZone(type)
      return utc ? { type: utc, layout: plain(2), source: readable(type), zone: type.timezone! } : { type, layout: plain(2) }
    }
    case T.Interval: {
      const x = f.type(new fbSchema.Interval()) as InstanceType<typeof fbSchema.Interval>
      return { ...unsupported(`Interval[${['YearMonth', 'DayTime', 'MonthDayNano'][x.unit()] ?? x.unit()}]`), layout: plain(2) }
    }
    case T.Duration: {
      const x = f.type(new fbSchema.Duration()) as InstanceType<typeof fbSchema.Duration>
      return { type: new Duration(x.unit() as number), layout: plain(2) }
    }
    case T.FixedSizeBinary: {
      const x = f.type(new fbSchema.FixedSizeBinary()) as InstanceType<typeof fbSchema.FixedSizeBinary>
      return { type: new FixedSizeBinary(x.byteWidth()), layout: plain(2) }
    }
    case T.List:
      return { type: new List(child()), layout: plain(2, kids), source: `List<${sources[0]}>` }
    case T.LargeList:
      return { type: new List(child()), layout: { kind: 'large-list', children: [kids[0]!] }, source: `LargeList<${sources[0]}>` }
    case TYPE_LIST_VIEW:
    case TYPE_LARGE_LIST_VIEW: {
      const large = t === TYPE_LARGE_LIST_VIEW
      const source = `${large ? 'LargeListView' : 'ListView'}<${sources[0]}>`
      return { type: new List(child()), layout: { kind: 'list-view', large, children: [kids[0]!] }, source }
    }
    case T.FixedSizeList: {
      const x = f.type(new fbSchema.FixedSizeList()) as InstanceType<typeof fbSchema.FixedSizeList>
      return { type: new FixedSizeList(x.listSize(), child()), layout: plain(1, kids), source: `FixedSizeList<${sources[0]}>[${x.listSize()}]` }
    }
    case T.Struct_:
      return { type: new Struct(children.map((c) => c.field)), layout: plain(1, kids), source: `Struct<${children.map((c) => `${c.field.name}: ${c.source}`).join(', ')}>` }
    case T.Map: {
      // Lance's file format 2.1 cannot store Map; a Map is a list of key/value structs, same buffers.
      const entries = child()
      const inner = /^Struct<(.*)>$/.exec(sources[0] ?? '')?.[1] ?? readable(entries.type)
      return { type: new List(entries), layout: plain(2, kids), source: `Map<${inner}>` }
    }
    case T.Union: {
      const x = f.type(new fbSchema.Union()) as InstanceType<typeof fbSchema.Union>
      const dense = x.mode() === fbSchema.UnionMode.Dense
      return { ...unsupported(dense ? 'DenseUnion' : 'SparseUnion'), layout: plain(dense ? 2 : 1, kids) }
    }
    case T.RunEndEncoded:
      return unsupported('RunEndEncoded')
    default:
      throw new Error(`it uses an Arrow type this app does not know (type id ${t})`)
  }
}

/** Short readable type names for conversions and errors: `Timestamp[ns, UTC]`, `Duration[ns]`, `List<Utf8>`. */
export function readable(type: DataType): string {
  const t = type as DataType & { unit?: number; timezone?: string | null; children?: Field[]; listSize?: number; bitWidth?: number }
  if (type instanceof Timestamp) return `Timestamp[${UNITS[t.unit!]}${t.timezone ? `, ${t.timezone}` : ''}]`
  if (type instanceof Duration) return `Duration[${UNITS[t.unit!]}]`
  if (type instanceof Time) return `Time${t.bitWidth}[${UNITS[t.unit!]}]`
  if (type instanceof List) return `List<${readable(t.children![0]!.type)}>`
  if (type instanceof FixedSizeList) return `FixedSizeList<${readable(t.children![0]!.type)}>[${t.listSize}]`
  if (type instanceof Struct) return `Struct<${t.children!.map((c) => `${c.name}: ${readable(c.type)}`).join(', ')}>`
  return String(type)
}
