type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | EventListener | undefined>;

/** An element with attributes (`on*` are listeners) and children; text is always set as text, never HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
export function svg(tag: string, attributes: Attributes = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** A snippet whose matched words come wrapped in ** **, as text nodes and <mark>s (never parsed as HTML). */
export function highlighted(snippet: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  snippet.split(/\*\*(.+?)\*\*/g).forEach((part, index) => {
    fragment.append(index % 2 ? h('mark', {}, part) : part);
  });
  return fragment;
}

export function replace(target: Element, ...children: Child[]): void {
  target.replaceChildren(...children.filter((child): child is Node | string => Boolean(child)));
}
