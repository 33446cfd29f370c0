// Named parameters (@name) for PostgreSQL statements, which take positional ones ($1, $2…): the
// repositories compose their SQL as the SQLite ones do, by name, and send it positionally. Each
// statement's text is translated once and kept, as the SQLite store keeps its prepared statements.

/** A statement translated: its $n text, and the names its parameters are taken from, in order. */
interface Translated {
  text: string;
  names: string[];
}

const translated = new Map<string, Translated>();

function translate(sql: string): Translated {
  const names: string[] = [];
  // A name used twice is one parameter: `@channel` in two conditions binds the same $n.
  const text = sql.replace(/@([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    let index = names.indexOf(name);
    if (index === -1) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text, names };
}

/** The $n text of a statement written with @names, and its values in order; a name left unbound is an error. */
export function named(sql: string, params: Record<string, unknown>): [string, unknown[]] {
  let statement = translated.get(sql);
  if (!statement) {
    statement = translate(sql);
    translated.set(sql, statement);
  }
  const values = statement.names.map((name) => {
    if (!(name in params)) throw new Error(`No value for the parameter @${name}`);
    return params[name];
  });
  return [statement.text, values];
}
