/**
 * A remark plugin that turns raw HTML in model output into plain text, so
 * `<img src=x onerror=...>` shows as the characters it is and never as an
 * element. (react-markdown would otherwise drop it silently.)
 */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

export function remarkHtmlAsText() {
  return (tree: MdNode) => {
    rewrite(tree, true);
  };
}

function rewrite(node: MdNode, atBlockLevel: boolean): void {
  if (!node.children) return;
  node.children = node.children.map((child) => {
    if (child.type !== 'html') {
      rewrite(child, child.type === 'root' || child.type === 'blockquote' || child.type === 'listItem');
      return child;
    }
    const text: MdNode = { type: 'text', value: child.value ?? '' };
    return atBlockLevel ? { type: 'paragraph', children: [text] } : text;
  });
}
