// The command blocks of a row's NOTES.md: what a partner copies into a terminal. Every fenced block
// names its language, so that a command cannot hide in a block of no language. A ```sh (or bash,
// shell) block is commands, and the line right above it names the folder it runs from, relative to
// the repository's root (`.` for the root itself), in a marker that the rendered page does not show:
//   <!-- run from: partners/go/oapi-codegen -->
// Blocks that show output or code use that language's name (```text, ```go, …), never sh.

export interface NotesBlock {
  /** The line of the opening fence, 1-based. */
  line: number;
  /** The folder it runs from, relative to the repository's root; `.` is the root. */
  folder: string;
  /** The commands, as written. */
  text: string;
}

const COMMAND_LANGUAGES = new Set(['sh', 'bash', 'shell']);
export const RUN_MARKER = /^<!-- run from: (\S+) -->$/;

/** The command blocks of a NOTES.md in order, each with its folder; throws naming every block that breaks the rules. */
export function notesBlocks(markdown: string, file = 'NOTES.md'): NotesBlock[] {
  const lines = markdown.split('\n');
  const blocks: NotesBlock[] = [];
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const fence = /^(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!fence) continue;
    const [, marks, info] = fence;
    const close = lines.findIndex((line, j) => j > i && line.startsWith(marks!) && line.trim() === marks);
    const end = close < 0 ? lines.length : close;
    const language = info!.trim().split(/\s+/)[0] ?? '';
    const where = `${file}:${i + 1}`;
    if (close < 0) problems.push(`${where}: the block is never closed`);
    if (language === '') problems.push(`${where}: a block with no language (commands are \`\`\`sh, output \`\`\`text)`);
    if (COMMAND_LANGUAGES.has(language)) {
      const folder = RUN_MARKER.exec(lines[i - 1] ?? '')?.[1];
      if (!folder) {
        problems.push(`${where}: a command block without "<!-- run from: <folder> -->" on the line above it`);
      } else if (!isRepositoryFolder(folder)) {
        problems.push(`${where}: "${folder}" is not a folder inside the repository`);
      } else {
        blocks.push({ line: i + 1, folder, text: lines.slice(i + 1, end).join('\n') });
      }
    }
    i = end;
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return blocks;
}

/** A relative path that stays inside the repository: no leading slash, no `..`. */
const isRepositoryFolder = (folder: string) => !folder.startsWith('/') && !folder.split('/').includes('..');

/** The folder of a row's partner files, and of its NOTES.md: `go-oapi-codegen` is partners/go/oapi-codegen. */
export function rowFolder(rowId: string): string {
  const dash = rowId.indexOf('-');
  if (dash <= 0) throw new Error(`row id ${rowId} is not <language>-<generator>`);
  return `partners/${rowId.slice(0, dash)}/${rowId.slice(dash + 1)}`;
}

/** A block as it runs against a sandbox other than npm start's: only the address 127.0.0.1:4010 changes. */
export const againstSandbox = (text: string, baseUrl: string) =>
  text.replaceAll('127.0.0.1:4010', new URL(baseUrl).host);
