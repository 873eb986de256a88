type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | EventListener | undefined>;

/** Sets attributes (`on*` are listeners; text is always set as text, never HTML) and appends children. */
function build<E extends Element>(element: E, attributes: Attributes, children: Child[]): E {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** An HTML element with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  return build(document.createElement(tag), attributes, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';
/** An SVG element with attributes and children. */
export function svg(tag: string, attributes: Attributes = {}, ...children: Child[]): SVGElement {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
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
