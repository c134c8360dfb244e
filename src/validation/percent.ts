/**
 * The int-or-percent parsers OpenKruise uses (they differ by field), so
 * synth-time rules read a value exactly as the webhook or controller will.
 * Each parser returns `undefined` when the value is not accepted, whatever
 * its type (a manifest as written may hold null, a list or an object there).
 */

/** An int-or-string value in wire form. */
export type IntOrPercent = number | string;

/** A parsed value: an absolute number, or a percentage (possibly fractional). */
export interface ParsedIntOrPercent {
  readonly isPercent: boolean;
  readonly value: number;
}

/** PCT-KRUISE: any integer; or a string ending in '%' whose number part is a float. */
export function parseKruisePercent(v: IntOrPercent | unknown): ParsedIntOrPercent | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? { isPercent: false, value: v } : undefined;
  if (typeof v !== 'string') return undefined;
  if (!v.endsWith('%')) return undefined;
  const body = v.slice(0, -1);
  if (body.trim() === '' || body !== body.trim()) return undefined;
  const n = Number(body);
  return Number.isFinite(n) ? { isPercent: true, value: n } : undefined;
}

/** PCT-UPSTREAM: any integer; or a string of an integer (sign allowed) followed by '%'. */
export function parseUpstreamPercent(v: IntOrPercent | unknown): ParsedIntOrPercent | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? { isPercent: false, value: v } : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^([+-]?\d+)%$/.exec(v);
  return m ? { isPercent: true, value: Number(m[1]) } : undefined;
}

const INT64_MAX = BigInt('9223372036854775807');

/**
 * PCT-LEGACY: apimachinery's deprecated `intstr.GetValueFromIntOrPercent`
 * (which some OpenKruise webhooks call): any integer; or any string that is a
 * whole number once every '%' is taken out (Go's strconv.Atoi: a sign, then
 * digits), read as a percentage whether or not it had a '%' (`"1"` is 1%).
 */
export function parseLegacyPercent(v: IntOrPercent | unknown): ParsedIntOrPercent | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? { isPercent: false, value: v } : undefined;
  if (typeof v !== 'string') return undefined;
  const body = v.replace(/%/g, '');
  if (!/^[+-]?\d+$/.test(body)) return undefined;
  const big = BigInt(body);
  if (big > INT64_MAX || big < -INT64_MAX - BigInt(1)) return undefined;
  return { isPercent: true, value: Number(big) };
}

/** PCT-STRICT: an integer >= 0, or a string of digits followed by '%'. */
export function parseStrictPercent(v: IntOrPercent | unknown): ParsedIntOrPercent | undefined {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 ? { isPercent: false, value: v } : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^([0-9]+)%$/.exec(v);
  return m ? { isPercent: true, value: Number(m[1]) } : undefined;
}

/** The absolute value of a parsed int-or-percent against `total`, rounding up or down. */
export function scaled(p: ParsedIntOrPercent, total: number, roundUp: boolean): number {
  if (!p.isPercent) return p.value;
  const exact = (p.value * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}
