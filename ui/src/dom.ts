// Building DOM nodes without ever parsing markup: every string becomes a text node or
// an attribute value, so text that came from a document can never run as code.

export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  testid?: string;
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (e: HTMLElementEventMap[K]) => void }>;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.testid) el.dataset.testid = props.testid;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const [event, handler] of Object.entries(props.on ?? {})) {
    el.addEventListener(event, handler as EventListener);
  }
  append(el, ...children);
  return el;
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export function replace(el: Element, ...children: Child[]): void {
  clear(el);
  append(el, ...children);
}

/// Scrolls `el` to the middle of its scrolling `container` without moving the window
/// (scrollIntoView would scroll every ancestor, the app's own layout included).
export function scrollWithin(container: Element, el: Element): void {
  const c = container.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  container.scrollTop += r.top - c.top - (container.clientHeight - r.height) / 2;
}
