/**
 * What the fleet report's container predictions are judged by, on kwok pods
 * (manager-6-fleet) and on the real node (nodes/8-fleet).
 */

/**
 * Whether `actual` is `predicted` up to the order of sidecars the webhook
 * does not fix (`FleetInjection.containerOrderFixed` false: the same set,
 * the app containers in place).
 */
export function sameUpToSidecarOrder(predicted: string[], actual: string[], app: string[]): boolean {
  if ([...predicted].sort().join() !== [...actual].sort().join()) return false;
  const appOrder = (l: string[]) => l.filter(c => app.includes(c)).join();
  const firstApp = (l: string[]) => l.findIndex(c => app.includes(c));
  return appOrder(predicted) === appOrder(actual) && firstApp(predicted) === firstApp(actual);
}
