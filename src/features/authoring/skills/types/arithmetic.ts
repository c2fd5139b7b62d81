/**
 * A small arithmetic language for the calculator skill, evaluated by a recursive-descent parser:
 * the text is data, never code, so there is no `eval`, no `Function` and no property access.
 *
 *   expression := term (("+" | "-") term)*
 *   term       := unary (("*" | "/" | "%") unary)*
 *   unary      := ("+" | "-") unary | power
 *   power      := primary (("^" | "**") unary)?        right-associative; -2^2 = -4
 *   primary    := number | constant | function "(" expression ("," expression)* ")" | "(" expression ")"
 */

export class ArithmeticError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArithmeticError';
  }
}

const maximumLength = 1_000;
const maximumDepth = 64;

const constants: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };

type NumericFunction = { arity: [minimum: number, maximum: number]; apply: (...values: number[]) => number };

const unary = (apply: (value: number) => number): NumericFunction => ({ arity: [1, 1], apply });
const functions: Record<string, NumericFunction> = {
  sqrt: unary(Math.sqrt),
  cbrt: unary(Math.cbrt),
  abs: unary(Math.abs),
  round: unary(Math.round),
  floor: unary(Math.floor),
  ceil: unary(Math.ceil),
  trunc: unary(Math.trunc),
  sign: unary(Math.sign),
  exp: unary(Math.exp),
  ln: unary(Math.log),
  log2: unary(Math.log2),
  log10: unary(Math.log10),
  sin: unary(Math.sin),
  cos: unary(Math.cos),
  tan: unary(Math.tan),
  asin: unary(Math.asin),
  acos: unary(Math.acos),
  atan: unary(Math.atan),
  // log(x) is base 10, as on a pocket calculator; log(x, base) any base.
  log: {
    arity: [1, 2],
    apply: (value, base) => (base === undefined ? Math.log10(value) : Math.log(value) / Math.log(base)),
  },
  pow: { arity: [2, 2], apply: (base, exponent) => base! ** exponent! },
  atan2: { arity: [2, 2], apply: (y, x) => Math.atan2(y!, x!) },
  hypot: { arity: [1, 32], apply: (...values) => Math.hypot(...values) },
  min: { arity: [1, 32], apply: (...values) => Math.min(...values) },
  max: { arity: [1, 32], apply: (...values) => Math.max(...values) },
};

type Token =
  | { kind: 'number'; value: number }
  | { kind: 'name'; value: string }
  | { kind: 'symbol'; value: string };

const symbolAliases: Record<string, string> = { '×': '*', '·': '*', '÷': '/', '−': '-' };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(\*\*|[-+*/%^(),×·÷−])/y;
  let position = 0;
  while (position < text.length) {
    if (/\s/.test(text[position]!)) {
      position++;
      continue;
    }
    pattern.lastIndex = position;
    const match = pattern.exec(text);
    if (!match) throw new ArithmeticError(`unexpected "${text[position]}" at position ${position + 1}`);
    position = pattern.lastIndex;
    if (match[1] !== undefined) tokens.push({ kind: 'number', value: Number(match[1]) });
    else if (match[2] !== undefined) tokens.push({ kind: 'name', value: match[2].toLowerCase() });
    else tokens.push({ kind: 'symbol', value: symbolAliases[match[3]!] ?? match[3]! });
  }
  return tokens;
}

/** Evaluates an arithmetic expression; throws ArithmeticError with a reason a person can act on. */
export function evaluateArithmetic(text: string): number {
  if (text.length > maximumLength)
    throw new ArithmeticError(`the expression is longer than ${maximumLength} characters`);
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new ArithmeticError('the expression is empty');
  let index = 0;
  let depth = 0;

  const peek = (): Token | undefined => tokens[index];
  const isSymbol = (value: string) => {
    const token = peek();
    return token?.kind === 'symbol' && token.value === value;
  };
  const expect = (value: string) => {
    if (!isSymbol(value)) throw new ArithmeticError(`expected "${value}"${describeNext()}`);
    index++;
  };
  const describeNext = () => {
    const token = peek();
    return token ? ` before "${token.value}"` : ' at the end';
  };
  const nested = <Value>(parse: () => Value): Value => {
    depth++;
    if (depth > maximumDepth) throw new ArithmeticError('the expression is nested too deeply');
    try {
      return parse();
    } finally {
      depth--;
    }
  };

  function expression(): number {
    return nested(() => {
      let value = term();
      while (isSymbol('+') || isSymbol('-')) {
        const operator = (tokens[index++] as { value: string }).value;
        const right = term();
        value = operator === '+' ? value + right : value - right;
      }
      return value;
    });
  }

  function term(): number {
    let value = unaryExpression();
    while (isSymbol('*') || isSymbol('/') || isSymbol('%')) {
      const operator = (tokens[index++] as { value: string }).value;
      const right = unaryExpression();
      if ((operator === '/' || operator === '%') && right === 0)
        throw new ArithmeticError('division by zero');
      value = operator === '*' ? value * right : operator === '/' ? value / right : value % right;
    }
    return value;
  }

  function unaryExpression(): number {
    return nested(() => {
      if (isSymbol('-')) {
        index++;
        return -unaryExpression();
      }
      if (isSymbol('+')) {
        index++;
        return unaryExpression();
      }
      return power();
    });
  }

  function power(): number {
    const base = primary();
    if (isSymbol('^') || isSymbol('**')) {
      index++;
      return base ** unaryExpression();
    }
    return base;
  }

  function primary(): number {
    const token = peek();
    if (!token) throw new ArithmeticError('the expression ends too early');
    index++;
    if (token.kind === 'number') return token.value;
    if (token.kind === 'symbol') {
      if (token.value !== '(') throw new ArithmeticError(`unexpected "${token.value}"`);
      const value = expression();
      expect(')');
      return value;
    }
    // Own properties only: "constructor" or "__proto__" are unknown names, not Object's members.
    if (Object.hasOwn(constants, token.value)) return constants[token.value]!;
    const numericFunction = Object.hasOwn(functions, token.value) ? functions[token.value] : undefined;
    if (!numericFunction) throw new ArithmeticError(`unknown name "${token.value}"`);
    expect('(');
    const values = [expression()];
    while (isSymbol(',')) {
      index++;
      values.push(expression());
    }
    expect(')');
    const [minimum, maximum] = numericFunction.arity;
    if (values.length < minimum || values.length > maximum) {
      throw new ArithmeticError(
        `${token.value} takes ${minimum === maximum ? minimum : `${minimum} to ${maximum}`} arguments`,
      );
    }
    return numericFunction.apply(...values);
  }

  const value = expression();
  if (index < tokens.length) throw new ArithmeticError(`unexpected "${tokens[index]!.value}"`);
  if (!Number.isFinite(value)) throw new ArithmeticError('the result is not a finite number');
  return value;
}

/** 0.1 + 0.2 → "0.3": fifteen significant digits hide binary rounding without losing real precision. */
export function formatNumber(value: number): string {
  return String(Number(value.toPrecision(15)));
}
