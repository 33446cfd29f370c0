// PostgreSQL's text holds no NUL, where SQLite's does: the server refuses a parameter with one
// (invalid byte sequence, 22021), and no stored text holds one. A key or needle with a NUL
// therefore names no row: a read by it answers nothing, as SQLite's does, instead of failing.

/** Whether any of these values holds a NUL, and so matches no stored text. */
export const holdsNul = (...values: ReadonlyArray<string | null | undefined>) =>
  values.some((value) => typeof value === 'string' && value.includes('\u0000'));
