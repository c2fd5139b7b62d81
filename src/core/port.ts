/**
 * A back edge of the module list: a feature made early needs one function of a feature made later
 * (a higher wing, or the other half of a pair inside a wing). The early feature declares the port
 * and hands `call` to its services; the later module `provide`s the function once. The order of the
 * list stays the order of the imports, and each back edge is named where it is declared.
 */
export type Port<Call extends (...parameters: never[]) => unknown> = {
  readonly name: string;
  /** Forwards to the provided function; before one is provided it throws (a wiring error). */
  readonly call: Call;
  provide(implementation: Call): void;
  readonly provided: boolean;
};

export function createPort<Call extends (...parameters: never[]) => unknown>(name: string): Port<Call> {
  let implementation: Call | undefined;
  const call = ((...parameters: Parameters<Call>) => {
    if (!implementation) throw new Error(`The port "${name}" is used before a module provides it`);
    return implementation(...parameters);
  }) as Call;
  return {
    name,
    call,
    provide(given) {
      if (implementation) throw new Error(`The port "${name}" is provided twice`);
      implementation = given;
    },
    get provided() {
      return implementation !== undefined;
    },
  };
}

/** A port of any call, as a list of ports sees it. */
export type DeclaredPort = Pick<Port<never>, 'name' | 'provided'>;

/** Every port of a list of modules is provided, or the first that is not is named. */
export function assertProvided(ports: Iterable<DeclaredPort>): void {
  for (const port of ports) {
    if (!port.provided) throw new Error(`No module provides the port "${port.name}"`);
  }
}
