// The page's elements: found by id, and made with text children only, so that no value of the
// sandbox is ever parsed as HTML.

export type Child = Node | string | null | undefined | false;
export type Attributes = Record<string, string | boolean | undefined>;

export const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** An element with text children only: nothing here is ever parsed as HTML. */
export function h(tag: string, attributes: Attributes = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) node.setAttribute(name, '');
    else if (typeof value === 'string') node.setAttribute(name, value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}
