/** DynamoDB's limit of operands in one `IN` comparison. */
const IN_OPERANDS_MAX = 100;

/** Builds `a = :a AND b IN (...)` filter expressions with safe placeholder names. */
export class Filter {
  readonly parts: string[] = [];
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private n = 0;

  private name(field: string): string {
    const placeholder = `#f${this.n++}`;
    this.names[placeholder] = field;
    return placeholder;
  }

  private value(value: unknown): string {
    const placeholder = `:v${this.n++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  eq(field: string, value: unknown): this {
    if (value !== undefined) this.parts.push(`${this.name(field)} = ${this.value(value)}`);
    return this;
  }

  gte(field: string, value: number | undefined): this {
    if (value !== undefined) this.parts.push(`${this.name(field)} >= ${this.value(value)}`);
    return this;
  }

  lte(field: string, value: number | undefined): this {
    if (value !== undefined) this.parts.push(`${this.name(field)} <= ${this.value(value)}`);
    return this;
  }

  contains(field: string, value: string | undefined): this {
    if (value !== undefined) this.parts.push(`contains(${this.name(field)}, ${this.value(value)})`);
    return this;
  }

  in(field: string, values: unknown[] | undefined): this {
    if (values === undefined) return this;
    if (values.length === 0) {
      this.parts.push(`${this.name(field)} = ${this.value('\u0000none')}`);
      return this;
    }
    const name = this.name(field);
    // DynamoDB takes at most 100 operands per IN: longer lists are ORs of INs.
    const chunks: unknown[][] = [];
    for (let start = 0; start < values.length; start += IN_OPERANDS_MAX)
      chunks.push(values.slice(start, start + IN_OPERANDS_MAX));
    const ins = chunks.map((chunk) => `${name} IN (${chunk.map((value) => this.value(value)).join(', ')})`);
    this.parts.push(ins.length === 1 ? (ins[0] ?? '') : `(${ins.join(' OR ')})`);
    return this;
  }

  apply() {
    return this.parts.length
      ? {
          FilterExpression: this.parts.join(' AND '),
          ExpressionAttributeNames: this.names,
          extraValues: this.values,
        }
      : { extraValues: {} };
  }
}
