import { describe, expect, it } from "vitest";
import { hasContent, sanitizePostHtml } from "../../src/server/services/core/sanitize.ts";

describe("sanitizePostHtml", () => {
  it.each([
    ["<p>hi</p><script>alert(1)</script>", "<p>hi</p>"],
    ['<img src="x" onerror="alert(1)">', ""],
    ['<img src="https://cdn.example.org/a.png" onerror="alert(1)">', '<img src="https://cdn.example.org/a.png" />'],
    ['<svg onload="alert(1)"><circle /></svg><p>ok</p>', "<p>ok</p>"],
    ['<a href="javascript:alert(1)">x</a>', '<a target="_blank" rel="noopener noreferrer nofollow">x</a>'],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a target="_blank" rel="noopener noreferrer nofollow">x</a>'],
    ['<a href="java&#x09;script:alert(1)">x</a>', '<a target="_blank" rel="noopener noreferrer nofollow">x</a>'],
    ['<a href=" &#14;javascript:alert(1)">x</a>', '<a target="_blank" rel="noopener noreferrer nofollow">x</a>'],
    [
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
      '<a target="_blank" rel="noopener noreferrer nofollow">x</a>',
    ],
    ['<a href="vbscript:msgbox(1)">x</a>', '<a target="_blank" rel="noopener noreferrer nofollow">x</a>'],
    ['<iframe src="https://evil.example"></iframe><p>a</p>', "<p>a</p>"],
    ['<p style="background:url(javascript:alert(1))">a</p>', "<p>a</p>"],
    ['<span style="background-image:url(https://evil.example/x.png)">a</span>', "<span>a</span>"],
    ['<span style="font-family:Comic Sans">a</span>', "<span>a</span>"],
    ['<img src="data:image/png;base64,AAAA">', ""],
    ['<img src="//evil.example/x.png">', ""],
    ['<object data="x"></object><embed src="x"><form action="x"><input></form>', ""],
    ['<p class="indent-9 evil">a</p>', "<p>a</p>"],
    ["<style>body{display:none}</style><p>a</p>", "<p>a</p>"],
    ["<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>", ""],
  ])("strips %s", (input, output) => {
    expect(sanitizePostHtml(input)).toBe(output);
  });

  it("keeps the editor's own formatting", () => {
    const html = [
      "<h1>Title</h1>",
      '<h2 class="indent-2">Sub</h2>',
      "<p><strong>b</strong><em>i</em><u>u</u><s>s</s></p>",
      "<blockquote>q</blockquote>",
      '<ul><li>one</li></ul><ol><li class="indent-8">two</li></ol>',
      '<p class="indent-1"><span style="font-family:serif">s</span><span style="font-family:monospace">m</span></p>',
      '<p><span style="font-size:0.75em">small</span><span style="font-size:1.5em">large</span><span style="font-size:2.5em">huge</span></p>',
      '<p><a href="https://example.org" target="_blank" rel="noopener noreferrer nofollow">w</a>',
      '<a href="mailto:a@example.org" target="_blank" rel="noopener noreferrer nofollow">m</a>',
      '<a href="tel:+441234" target="_blank" rel="noopener noreferrer nofollow">t</a></p>',
      '<p><img src="/uploads/abc.webp" alt="pic" /></p>',
    ].join("");
    expect(sanitizePostHtml(html)).toBe(html);
  });
});

describe("hasContent", () => {
  it("is false for empty editor output and true for text or an image", () => {
    expect(hasContent("<p></p><p><br></p>")).toBe(false);
    expect(hasContent("<p>a</p>")).toBe(true);
    expect(hasContent('<p><img src="/uploads/a.webp"></p>')).toBe(true);
  });
});
