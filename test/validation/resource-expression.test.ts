import { resourceExpressionProblem } from '../../src/validation/resource-expression';

test.each([
  ['cpu', 'cpu'],
  ['cpu*50%', 'cpu'],
  ['max(cpu*50%, 50m)', 'cpu'],
  ['min(memory, 512Mi) + 64Mi', 'memory'],
  ['(cpu + 100m) / 2', 'cpu'],
  ['1.5e2m', 'cpu'],
  ['-(-cpu)', 'cpu'],
  ['MEMORY * 2', 'memory'],
] as const)('accepts %s', (expr, variable) => {
  expect(resourceExpressionProblem(expr, variable)).toBeUndefined();
});

test.each([
  ['cpu - 2', 'cpu', 'is negative (-1) when cpu is 1'],
  ['memory', 'cpu', "uses unknown name 'memory' (only cpu is defined here)"],
  ['avg(cpu, 1)', 'cpu', "uses unknown name 'avg' (only cpu is defined here)"],
  ['max(cpu)', 'cpu', 'calls max() with 1 argument(s); it takes exactly 2'],
  ['50m * 2Mi', 'cpu', 'multiplies a quantity by a quantity'],
  ['cpu / 50m', 'cpu', 'divides by a quantity'],
  ['cpu / 0', 'cpu', 'divides by zero'],
  ['(cpu', 'cpu', "expects ')' at position 5"],
  ['cpu +', 'cpu', 'ends too early'],
  ['cpu ^ 2', 'cpu', "unexpected '^ 2'"],
] as const)('fails on %s', (expr, variable, problem) => {
  expect(resourceExpressionProblem(expr, variable)).toBe(problem);
});
