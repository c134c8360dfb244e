/**
 * A problem with what the plan was asked to read (a missing directory, bad
 * YAML, an unknown git ref, an unknown gate): the message names the input,
 * the value and what to do. The CLI prints it as one line and exits 1.
 */
export class PlanInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanInputError';
  }
}
