// XML 1.0 text escaping shared by the JUnit and SVG writers.

/**
 * Escapes text for an XML 1.0 attribute or element. Characters XML 1.0 forbids even as character
 * references (C0 controls other than tab/LF/CR, U+FFFE, U+FFFF, lone surrogates) are written as
 * visible "\u{XXXX}" text so nothing is silently lost and the document always parses.
 */
export function xmlEscape(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i]! + text[i + 1]!;
        i++;
        continue;
      }
      out += visible(c);
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) {
      out += visible(c);
      continue;
    }
    switch (c) {
      case 0x26:
        out += '&amp;';
        continue;
      case 0x3c:
        out += '&lt;';
        continue;
      case 0x3e:
        out += '&gt;';
        continue;
      case 0x22:
        out += '&quot;';
        continue;
      case 0x27:
        out += '&apos;';
        continue;
      case 0x09:
        out += '&#9;';
        continue;
      case 0x0a:
        out += '&#10;';
        continue;
      case 0x0d:
        out += '&#13;';
        continue;
    }
    if (c < 0x20 || c === 0xfffe || c === 0xffff) {
      out += visible(c);
      continue;
    }
    out += text[i]!;
  }
  return out;
}

/** Like xmlEscape, but keeps tab/LF/CR literal (element content, where line breaks should stay readable). */
export function xmlEscapeText(text: string): string {
  return xmlEscape(text).replace(/&#9;/g, '\t').replace(/&#10;/g, '\n').replace(/&#13;/g, '\r');
}

function visible(code: number): string {
  return `\\u{${code.toString(16).toUpperCase().padStart(4, '0')}}`;
}
