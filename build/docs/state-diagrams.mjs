// The state diagrams of the guides, generated at build time from the state tables the document
// itself holds (its tag descriptions, and the status_summary enum), so that a diagram cannot
// drift from the contract. Graphviz, compiled to WebAssembly, lays them out into SVG in Node: no
// diagram script runs in the reader's browser.
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { openEnumValues } from '../../src/contract/open-enum.ts';

/** The rows of the first Markdown table in `text` whose header row starts with `header`. */
export function tableRows(text, header) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.replace(/\s+/g, ' ').startsWith(header));
  if (start < 0) throw new Error(`No table with header "${header}" in the document`);
  const rows = [];
  // Skip the header and its |---| line; the table ends at the first line that is no row.
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, line.lastIndexOf('|'))
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const ticked = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
const plain = (cell) => cell.replace(/`/g, '').replace(/\s+/g, ' ').trim();
// The webhooks a row's "Also" column names: event names in backticks.
const webhooksIn = (cell) =>
  ticked(cell).filter((name) => /^(payment_session_complete|payment_token\.|dispute\.|product_catalog\.)/.test(name));

/**
 * The states a cell names: its backticked values, or, when it has none, the cell's text itself (a
 * group such as "open chargeback", or a start such as "(new)").
 */
const statesIn = (cell) => (ticked(cell).length > 0 ? ticked(cell) : plain(cell) ? [plain(cell)] : []);

/**
 * A transition table as edges. `columns` names the from, moved-by, condition (optional), to and
 * also (optional) columns by index. `emptyTo` names the target of a row whose "to" cell is empty.
 */
export function edgesOf(rows, columns, { emptyTo } = {}) {
  const edges = [];
  for (const row of rows) {
    const cell = (i) => (i === undefined ? '' : (row[i] ?? ''));
    const label = [plain(cell(columns.movedBy)), plain(cell(columns.condition))].filter(Boolean).join(': ');
    const webhooks = webhooksIn(cell(columns.also));
    const targets = statesIn(cell(columns.to));
    for (const from of statesIn(cell(columns.from))) {
      for (const to of targets.length > 0 ? targets : [emptyTo]) edges.push({ from, to, label, webhooks });
    }
  }
  return edges;
}

const quote = (text) => `"${String(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
/** Wraps a label at about `width` characters, for Graphviz's centred lines (\n). */
const wrap = (text, width = 24) => {
  const lines = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
};

const isStart = (name) => /^\(.*\)$/.test(name);

/** The values a table names in backticks in the given columns: the states themselves. */
export const valuesIn = (rows, columns) => [
  ...new Set(rows.flatMap((row) => columns.flatMap((i) => ticked(row[i] ?? '')))),
];

/**
 * DOT source of a state diagram: `states` are values of the contract (solid boxes); other nodes
 * are groups such as "open chargeback", or starts such as "(new)" (dashed). `rows` lays nodes out
 * in rows of their own, for a diagram without edges.
 */
export function dotOf(edges, { states = [], direction = 'TB', rows = [] } = {}) {
  const known = new Set(states);
  const nodes = [...new Set([...states, ...edges.flatMap((e) => [e.from, e.to])])];
  const node = (name) => {
    if (isStart(name))
      return `${quote(name)} [label=${quote(wrap(name, 22))}, shape=box, style="rounded,dashed", color="#6b7280", fontcolor="#374151"]`;
    if (known.has(name))
      return `${quote(name)} [shape=box, style="rounded,filled", fillcolor="#eef2ff", color="#3730a3", fontcolor="#111827", penwidth=1.4]`;
    return `${quote(name)} [label=${quote(wrap(name, 22))}, shape=box, style="rounded,dashed", color="#3730a3", fontcolor="#1f2937"]`;
  };
  const edge = ({ from, to, label, webhooks }) => {
    const text = [wrap(label), ...webhooks.map((w) => `⇒ ${w}`)].filter(Boolean).join('\n');
    return `${quote(from)} -> ${quote(to)} [label=${quote(text)}]`;
  };
  return [
    'digraph states {',
    `  rankdir=${direction}; bgcolor="transparent"; nodesep=0.5; ranksep=0.55;`,
    '  node [fontname="Helvetica,Arial,sans-serif", fontsize=12, margin="0.18,0.08"];',
    '  edge [fontname="Helvetica,Arial,sans-serif", fontsize=10, color="#4b5563", fontcolor="#1f2937", arrowsize=0.7];',
    ...nodes.map((name) => `  ${node(name)};`),
    ...edges.map((e) => `  ${edge(e)};`),
    ...rows.map((row) => `  { rank=same; ${row.map(quote).join('; ')}; }`),
    // Invisible edges between the rows' first nodes keep the rows in order.
    ...rows.slice(1).map((row, i) => `  ${quote(rows[i][0])} -> ${quote(row[0])} [style=invis];`),
    '}',
  ].join('\n');
}

let graphviz;
/** Graphviz's SVG for a DOT source, made fit to inline in a page: no prolog, scalable, labelled. */
export async function svgOf(dot, title) {
  graphviz ??= await Graphviz.load();
  const svg = graphviz
    .dot(dot)
    .replace(/<\?xml[^>]*>\s*/, '')
    .replace(/<!DOCTYPE[^>]*>\s*/, '')
    .replace(/<!--[\s\S]*?-->\s*/g, '');
  // Scales with its column (the viewBox keeps the proportions); role and title name it for screen readers.
  return svg.replace(
    /<svg width="([\d.]+)pt" height="([\d.]+)pt"/,
    (_m, w) =>
      `<svg role="img" aria-label=${quote(title)} style="max-width:${Math.round(Number(w) * 1.333)}px;width:100%;height:auto"`,
  );
}

/** Every state diagram of the guides, by name, as inline SVG. */
export async function stateDiagrams(doc) {
  const tag = (name) => {
    const found = doc.tags.find((t) => t.name === name);
    if (!found) throw new Error(`No tag "${name}" in the document`);
    return found.description;
  };
  const enumOf = (schema) => openEnumValues(doc.components.schemas[schema]);
  const sessionRows = tableRows(tag('Payment sessions'), '| State | Moved by | Condition | Next state |');
  const sessions = edgesOf(sessionRows, { from: 0, movedBy: 1, condition: 2, to: 3, also: 4 });
  const disputeRows = tableRows(tag('Disputes'), '| State | Moved by | Next | Also |');
  // The row of an escalating inquiry leaves "Next" empty: the inquiry becomes a chargeback ("dispute.created fires again, for the chargeback").
  const disputes = edgesOf(disputeRows, { from: 0, movedBy: 1, to: 2, also: 3 }, { emptyTo: 'open chargeback' });
  const eligibilityRows = tableRows(tag('Eligibility'), '| From | Moved by | To |');
  const eligibility = edgesOf(eligibilityRows, { from: 0, movedBy: 1, to: 2 });
  const summary = enumOf('PaymentSessionStatusSummary');
  return {
    'session-status': await svgOf(
      dotOf(sessions, { states: enumOf('PaymentSessionStatus') }),
      'Payment session status: the states and the moves between them',
    ),
    // The moves between status_summary values are not documented: the values stand alone, three to a row.
    'status-summary': await svgOf(
      dotOf([], { states: summary, rows: [summary.slice(0, 3), summary.slice(3, 6), summary.slice(6)] }),
      'The values of status_summary; the moves between them are not documented',
    ),
    'dispute-states': await svgOf(
      dotOf(disputes, { states: valuesIn(disputeRows, [0, 2]) }),
      'Dispute states: the moves the reference documents, and the webhook each fires',
    ),
    'eligibility-states': await svgOf(
      dotOf(eligibility, { states: valuesIn(eligibilityRows, [0, 2]) }),
      'Eligibility status: the documented moves',
    ),
  };
}
