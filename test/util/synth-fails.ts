import { Testing } from 'cdk8s';

/**
 * Build something in a fresh test chart, synthesize it, and expect synth to
 * fail with every one of `messages` in its error. Returns the error text.
 */
export function synthFails(make: (chart: any) => void, ...messages: string[]): string {
  const chart = Testing.chart();
  make(chart);
  let error = '';
  try { Testing.synth(chart); } catch (e: any) { error = e.message; }
  expect(error).not.toBe('');
  for (const m of messages) expect(error).toContain(m);
  return error;
}
