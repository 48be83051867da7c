// Text for an ESC/POS printer in code page 850 ("PC850 Multilingual", selected with ESC t 2).
// Why 850: it holds every letter of Portuguese (á à â ã é ê í ó ô õ ú ü ç and capitals) and the
// signs the copy prints (º ª §), which 860 (Portuguese) lacks in part (no §); 858 is 850 with € in
// place of ı, but fewer cheap printers know its number (ESC t 19), and a copy never prints €.
// Characters outside 850 fall back to their letter without accent (NFD), the dashes and quotes
// to ASCII, anything else to '?'. Pure: no DOM.

// Bytes 0x80–0xFF of code page 850, in order (IBM's table; Python's 'cp850' codec agrees).
const HIGH = 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒ' +
  'áíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐' +
  '└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀' +
  'ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00ad±‗¾¶§÷¸°¨·¹³²■\u00a0';
const BYTE_OF = new Map([...HIGH].map((ch, i) => [ch, 0x80 + i]));
const ASCII_FOR = new Map([
  ['\u2014', '-'], ['\u2013', '-'], ['\u2212', '-'], ['\u2022', '-'], ['\u2026', '...'],
  ['\u201c', '"'], ['\u201d', '"'], ['\u2018', "'"], ['\u2019', "'"], ['\u00a0', ' '],
]);

/** The code page number ESC t takes for 850 on Epson-compatible printers. */
export const ESC_T_CP850 = 2;

/** Text → bytes in code page 850 (printable ASCII kept; control characters become spaces). */
export function encodeCp850(text) {
  const out = [];
  for (const ch of String(text)) {
    const code = ch.codePointAt(0);
    if (code >= 0x20 && code < 0x7f) { out.push(code); continue; }
    if (BYTE_OF.has(ch) && code !== 0xa0) { out.push(BYTE_OF.get(ch)); continue; }
    if (ASCII_FOR.has(ch)) { for (const c of ASCII_FOR.get(ch)) out.push(c.charCodeAt(0)); continue; }
    if (code < 0x20) { out.push(0x20); continue; }
    const bare = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    if (bare && bare !== ch && [...bare].every((c) => c.codePointAt(0) < 0x7f || BYTE_OF.has(c))) {
      out.push(...encodeCp850(bare));
      continue;
    }
    out.push(0x3f); // '?'
  }
  return out;
}
