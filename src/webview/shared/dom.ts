/** Small DOM builders: every element the webview creates itself goes through these, never innerHTML. */

interface ElementProps {
  className?: string;
  text?: string;
  attrs?: Record<string, string>;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: ElementProps = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

export function codicon(name: string): HTMLElement {
  return el('span', { className: `codicon codicon-${name}`, attrs: { 'aria-hidden': 'true' } });
}

/** A toolbar button whose click is routed by `data-action` through one delegated listener. */
export function actionButton(action: string, icon: string, label: string, showLabel = false): HTMLButtonElement {
  const button = el('button', {
    className: showLabel ? 'action labelled' : 'action',
    attrs: { type: 'button', 'data-action': action, title: label, 'aria-label': label },
  });
  button.append(codicon(icon));
  if (showLabel) button.append(el('span', { text: label }));
  return button;
}
