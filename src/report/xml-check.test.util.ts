// Test helper: a tiny, strict XML 1.0 well-formedness checker returning the element tree.
// Enough to prove junit.xml and badge.svg parse, and to count their elements.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function decode(text: string, where: string): string {
  return text.replace(/&([^;\s&<]*)(;?)/g, (m, ent: string, semi: string) => {
    if (!semi || !/^(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+)$/.test(ent)) throw new Error(`${where}: bare & in ${JSON.stringify(text.slice(0, 60))}`);
    if (ent.startsWith('#')) {
      const code = ent[1] === 'x' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      const ch = String.fromCodePoint(code);
      if (FORBIDDEN.test(ch)) throw new Error(`${where}: forbidden character reference ${m}`);
      return ch;
    }
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (!(ent in named)) throw new Error(`${where}: unknown entity ${m}`);
    return named[ent]!;
  });
}

export function parseXml(doc: string): XmlElement {
  if (FORBIDDEN.test(doc)) throw new Error('document contains a character XML 1.0 forbids');
  let i = 0;
  const s = doc.replace(/^<\?xml[^?]*\?>\s*/, '');
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    const text = lt < 0 ? s.slice(i) : s.slice(i, lt);
    if (text.includes('>')) throw new Error(`stray > in text near ${JSON.stringify(text.slice(0, 40))}`);
    stack[stack.length - 1]!.text += decode(text, 'text');
    if (lt < 0) break;
    tag.lastIndex = lt;
    const m = tag.exec(s);
    if (!m) throw new Error(`malformed tag at ${lt}: ${JSON.stringify(s.slice(lt, lt + 60))}`);
    const [, close, name, attrText, selfClose] = m;
    if (close) {
      const top = stack.pop();
      if (!top || top.name !== name) throw new Error(`mismatched </${name}>`);
    } else {
      const attrs: Record<string, string> = {};
      for (const a of attrText!.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]}`);
        attrs[a[1]!] = decode(a[2] ?? a[3] ?? '', `attribute ${a[1]}`);
      }
      const el: XmlElement = { name: name!, attrs, children: [], text: '' };
      stack[stack.length - 1]!.children.push(el);
      if (!selfClose) stack.push(el);
    }
    i = tag.lastIndex;
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (root.children.length !== 1) throw new Error('expected exactly one root element');
  return root.children[0]!;
}

export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    if (e.name === name) out.push(e);
    e.children.forEach(walk);
  };
  walk(el);
  return out;
}
